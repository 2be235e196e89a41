import { LRUCache } from 'lru-cache';
import type { Knowledge } from '../packs.js';
import type { Concept, Passage, Situation, Tradition } from '../model.js';
import { carried, type Hit, type QueryUnit, type Retrieval, type RetrievalScope, SENTENCE_END } from '../retrieval.js';
import { analyseQuestion, englishTerms, GENERIC_ENGLISH, isFunctionCharacter, normalize, PINYIN_WORD, questionTerms, terms, unquoteShort } from '../text.js';
import { type Intent, namesClassic, namesWork } from './intent.js';

export interface Evidence {
  passage: Passage;
  /** Why this passage counts as evidence. */
  basis: 'reference' | 'concept' | 'match' | 'situation' | 'precedent';
  relevance: number;
}

/**
 * The terms a passage must share with the question: Han bigrams that may be words (not 什么,
 * not 的人), a Han character that stands alone (王阳明怎么看待悔 -> 悔), and stemmed English
 * content words.
 */
export function contentTerms(content: string): string[] {
  return questionTerms(content);
}

const MATCHERS = new WeakMap<Retrieval, LRUCache<string, QuestionMatcher>>();

/**
 * How much of a question a passage carries, weighted by rarity: sharing "good" says little,
 * sharing 若水 a lot, and a word no passage has (iphone, 曼联) weighs most and pulls the share
 * down. Han text is weighed by character, not by bigram: without word segmentation 区分了解别人
 * also yields the seams 分了 and 解别, which no text has and which would otherwise weigh as much
 * as a word no passage has; by character, a seam weighs nothing of its own, and a character
 * counts as carried when any bigram (or synonym) holding it is in the passage. Terms the
 * synonym groups bridge (说话 ~ 言, leader ~ ruler) are carried by any word of the group.
 */
export class QuestionMatcher {
  /**
   * The matcher of a text, made once: one request asks for the same question's matcher several
   * times (illumination's four traditions, each a selectEvidence). A matcher never changes once
   * made (its carriers are filled in the same way whenever they are).
   */
  static of(content: string, retrieval: Retrieval): QuestionMatcher {
    let byContent = MATCHERS.get(retrieval);
    if (!byContent) MATCHERS.set(retrieval, (byContent = new LRUCache({ max: retrieval.textCacheEntries })));
    let matcher = byContent.get(content);
    if (!matcher) byContent.set(content, (matcher = new QuestionMatcher(content, retrieval)));
    return matcher;
  }

  readonly units: QueryUnit[];
  private readonly charWeight: number[];
  private readonly unitChars: number[][];
  private readonly unitEnglishWeight: number[];
  /** Units of generic words only (person, different): they do not count among the units matched. */
  private readonly generic: boolean[];
  /** The units some passage can carry: the only ones worth checking. */
  private readonly live: number[];
  /** Per live unit, which passages (by position) carry it; made at the first match(). */
  private carriers: Uint8Array[] | undefined;
  readonly total: number;
  /** The share of the question no passage can carry (see unknown()). */
  readonly unknownShare: number;

  /** How many of the question's units are not of generic words only (see GENERIC_ENGLISH). */
  get specificCount(): number {
    return this.generic.filter((g) => !g).length;
  }

  /** How many of the question's units some passage can carry. */
  get liveCount(): number {
    return this.live.length;
  }

  constructor(content: string, private readonly retrieval: Retrieval) {
    const { chars, spans, english, everyday } = analyseQuestion(content, retrieval.lexicon);
    const terms = [...new Set([...spans.map((s) => s.term), ...english])];
    this.units = retrieval.queryUnits(terms);
    const live = new Set(retrieval.liveUnits(this.units));
    this.live = this.units.flatMap((u, i) => (live.has(u) ? [i] : []));
    this.charWeight = chars.map((c) => (isFunctionCharacter(c) ? 0 : retrieval.idf(c)));
    this.generic = this.units.map((u) => u.covers.every((t) => GENERIC_ENGLISH.has(t)));
    // An everyday word no passage has (希望, 忍不住) is how the question is put: it weighs nothing.
    const dead = new Set(spans.filter((s) => !this.units.some((u) => live.has(u) && u.covers.includes(s.term))).map((s) => s.term));
    for (const at of everyday) {
      if (spans.some((s) => dead.has(s.term) && s.at.every((i) => at.includes(i)))) for (const i of at) this.charWeight[i] = 0;
    }
    const englishSet = new Set(english);
    this.unitChars = this.units.map((u) => [...new Set(spans.filter((s) => u.covers.includes(s.term)).flatMap((s) => s.at))]);
    this.unitEnglishWeight = this.units.map((u) => Math.max(0, ...u.covers.filter((t) => englishSet.has(t)).map((t) => retrieval.idf(t))));
    const hanChars = new Set(this.unitChars.flat());
    this.total = [...hanChars].reduce((sum, i) => sum + this.charWeight[i]!, 0) + this.unitEnglishWeight.reduce((a, b) => a + b, 0);
    this.unknownShare = this.unknown();
  }

  /**
   * The share of the question that no passage can carry at all: words no classic has (iphone,
   * 人工智能, skincare), which a passage sharing the rest does not speak to.
   */
  private unknown(): number {
    if (this.total <= 0) return 0;
    const chars = new Set<number>();
    let english = 0;
    for (const i of this.live) {
      for (const c of this.unitChars[i]!) chars.add(c);
      english += this.unitEnglishWeight[i]!;
    }
    let han = 0;
    for (const c of chars) han += this.charWeight[c]!;
    return Math.max(0, 1 - (han + english) / this.total);
  }

  /** The share of the question a passage carries, and how many of the question's units it has. */
  match(passageId: string): { coverage: number; matched: number } {
    const at = this.retrieval.ordinalOf(passageId);
    // Which passages carry each live unit, worked out once from the term postings.
    this.carriers ??= this.live.map((i) => this.retrieval.carriers(this.units[i]!));
    return this.score((n) => at !== undefined && this.carriers![n]![at] === 1);
  }

  /** The share of the question a set of terms (a passage's, or one sentence's) carries. */
  matchTerms(own: Set<string>): { coverage: number; matched: number } {
    return this.score((n) => carried(own, this.units[this.live[n]!]!));
  }

  /** Coverage and units matched, given which live units (by their place in `live`) are carried. */
  private score(carries: (n: number) => boolean): { coverage: number; matched: number } {
    const chars = new Set<number>();
    let english = 0;
    let matched = 0;
    for (const [n, i] of this.live.entries()) {
      if (!carries(n)) continue;
      if (!this.generic[i]) matched++;
      for (const c of this.unitChars[i]!) chars.add(c);
      english += this.unitEnglishWeight[i]!;
    }
    let han = 0;
    for (const c of chars) han += this.charWeight[c]!;
    return { coverage: this.total > 0 ? (han + english) / this.total : 0, matched };
  }
}

/**
 * Quotes in single quotation marks ('…', ‘…’): the marks must stand outside words, so that an
 * apostrophe (Confucius's, you'll, students') neither opens nor closes one.
 */
const SINGLE_QUOTED = /(?<![\p{L}\p{N}])['‘]((?:[^'‘’\n]|(?<=\p{L})['’](?=\p{L}))+?)['’](?![\p{L}\p{N}])/gu;

/**
 * The words a question quotes (“…”, 「…」, 『…』, "…", '…', ‘…’), when they are long enough to be
 * a line: three Han characters or more, or three English content words or more. A quote that is
 * the name of a concept (“知行合一”) is the concept, matched as such.
 */
export function quotesOf(content: string, concepts: Concept[] = []): string[] {
  const names = new Set(concepts.flatMap((c) => [c.zh, c.en, ...c.aliases].map((n) => normalize(n).replace(/\s+/g, ' ').trim())));
  const romanised = concepts.map((c) => normalize(c.pinyin_plain ?? '').replace(/\s+/g, '')).filter((name) => /^[a-z]{2,}$/.test(name));
  const outside = namesOutsideWork(content);
  const out: string[] = [];
  const n = normalize(content);
  const found = [...n.matchAll(/[“「『"]([^”」』"]+)[”」』"]/gu)];
  // Single marks are read outside the double ones only (“… 'the Way' …” quotes the whole).
  const inDouble = (at: number) => found.some((m) => at > m.index! && at < m.index! + m[0].length);
  for (const m of n.matchAll(SINGLE_QUOTED)) if (!inDouble(m.index!)) found.push(m);
  found.sort((a, b) => a.index! - b.index!);
  for (const m of found) {
    const quote = m[1]!.trim();
    if (names.has(quote.replace(/\s+/g, ' '))) continue;
    const han = (quote.match(/\p{Script=Han}/gu) ?? []).length;
    const words = quote.match(/[a-z]+/g) ?? [];
    // English renderings of a line differ from translator to translator ("heaven moves with vigor"):
    // one that carries a concept's English name of three words or more, itself a rendering of the
    // line, is matched through the concept (a two-word name, "noble person", is in many lines).
    if (han === 0 && [...names].some((name) => name.split(' ').length >= 3 && !/\p{Script=Han}/u.test(name) && ` ${quote.replace(/[^a-z0-9']+/g, ' ')} `.includes(` ${name} `))) continue;
    // A line given in pinyin only (junzi bu qi) is matched through the concept it names, if any.
    if (han === 0 && words.every((w) => PINYIN_WORD.test(w))) continue;
    // So is an English line that keeps a concept's romanised name ("Dao models itself on ziran",
    // "the dao that can be told"): a rendering says "the Way" or "what is so of itself" there, and
    // the line is found through the concept and its other words, not as a quote.
    // A line the question gives to a work these packs do not hold stays a quote (see namesOutsideWork).
    if (han === 0 && !outside && romanised.some((name) => (words as string[]).includes(name))) continue;
    if (han >= 3 || (han === 0 && englishTerms(quote).length >= 3)) out.push(quote);
  }
  return out;
}

/**
 * How much of a quote a passage carries: each sentence of the quote must be carried within one
 * sentence of the passage (its text, its rendering or a claim statement), and the quote counts
 * as carried at its least-carried sentence. 上善若火 is not in Daodejing 8 because 上善若水 is;
 * "choose a job you love" is not in a passage that has "love" in one sentence and "work" in another.
 */
export class QuoteMatcher {
  private readonly pieces: QuestionMatcher[];
  /** The clauses of a classical quote, Han characters only (己所不欲, 必施于人). */
  private readonly clauses: string[];
  /** The share of the quote a passage must carry: a classical line must be the line itself. */
  readonly floor: number;
  /** Chinese in modern wording (的, 就是, 什么): a paraphrase, not a line of the text. */
  readonly modernHan: boolean;

  constructor(readonly text: string, private readonly retrieval: Retrieval) {
    const quote = text;
    this.modernHan = /\p{Script=Han}/u.test(quote) && MODERN_WORDING.test(quote);
    this.floor = !/\p{Script=Han}/u.test(quote) ? QUOTE_FLOOR_PARAPHRASE : this.modernHan ? QUOTE_FLOOR_PARAPHRASE : QUOTE_FLOOR;
    // A classical line is read clause by clause: editions punctuate the same line differently
    // (反者道之动，弱者道之用 and 反者道之动；弱者道之用), so a clause, not the whole sentence, must
    // sit within one sentence of the passage. A clause too short to say anything alone (子曰) is
    // read with the sentence.
    const sentences = quote.split(SENTENCE_END);
    const pieces =
      this.floor === QUOTE_FLOOR
        ? sentences.flatMap((sentence) => {
            const clauses = sentence.split(/[，,、：:]/u);
            const han = (c: string) => (c.match(/\p{Script=Han}/gu) ?? []).length;
            if (clauses.every((c) => han(c) >= 3)) return clauses;
            // A list of three or more names (无我相、人相、众生相、寿者相) is quoted item by item:
            // the asker writes a negation once that the text repeats before each (无我相、无人相…).
            return (sentence.match(/、/gu) ?? []).length >= 2 && clauses.every((c) => han(c) >= 2) ? clauses : [sentence];
          })
        : sentences;
    this.pieces = pieces.map((piece) => QuestionMatcher.of(piece, retrieval)).filter((m) => m.units.length > 0);
    this.clauses =
      this.floor === QUOTE_FLOOR
        ? quote
            .split(/[^\p{Script=Han}]+/u)
            .filter((c) => Array.from(c).length >= 4)
        : [];
  }

  /**
   * Whether the quote is a real line with one character changed: some clause of it is in none of
   * these passages, and one of them has it with one character changed (上善若火 and 上善若水), or
   * every passage that has it has a negation just before it (以智治国，国之福 for the text's
   * 不以智治国，国之福): the line quoted says the opposite of the text.
   */
  alteredIn(passageIds: string[]): boolean {
    const texts = passageIds.map((id) => this.retrieval.hanTextOf(id));
    // Short clauses (父母在，可远游) are read together: the line as a whole has the changed character.
    // A list (无我相、人相…) is not: run together, it differs by one character from the same list
    // said the other way round (有我相、人相…).
    const whole = this.floor === QUOTE_FLOOR && (this.text.match(/、/gu) ?? []).length < 2 ? hanOnly(this.text) : '';
    const pieces = Array.from(whole).length >= 6 ? [...this.clauses, whole] : this.clauses;
    // A negation is looked for before the line as a whole only: a single clause is often quoted
    // after the question's own negation (为什么不能“住相布施”, of 不住相布施).
    return pieces.some((clause) => (!texts.some((t) => t.includes(clause)) && texts.some((t) => altered(clause, t))) || (clause === whole && !this.clauses.includes(whole) && negationLeftOff(clause, texts)));
  }

  /**
   * Whether a passage carries the quote (see carried) at least at the floor, or has each of its
   * clauses word for word but for one character the quote leaves out: a line is often quoted
   * without a particle of the text (无善无恶心之体 for 无善无恶是心之体), or with another (豫兮 for 豫焉).
   */
  carries(passageId: string): boolean {
    if (this.clauses.length) {
      const text = this.retrieval.hanTextOf(passageId);
      const received = asReceived(text);
      if (this.clauses.every((clause) => received.includes(asReceived(clause)) || oneLeftOut(clause, text) || particleSwapped(clause, text))) return true;
    }
    // A sentence has no term its passage lacks, so a piece the passage as a whole carries below
    // the floor is carried no better by any one sentence: no need to read them.
    if (this.pieces.some((piece) => piece.match(passageId).coverage < this.floor)) return false;
    return this.carried(passageId) >= this.floor;
  }

  carried(passageId: string): number {
    const sentences = this.retrieval.sentenceTerms(passageId);
    let least = 1;
    for (const piece of this.pieces) {
      let best = 0;
      for (const sentence of sentences) best = Math.max(best, piece.matchTerms(sentence).coverage);
      least = Math.min(least, best);
    }
    return least;
  }
}

/** Number words: what a passage that answers "how many" says beside what it counts (一 is too common to count). */
const COUNT_TERMS: ReadonlySet<string> = new Set([
  ...englishTerms('two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands dozen dozens'),
  ...Array.from('二两三四五六七八九十百千万'),
]);

/**
 * What a question asks the number of ("how many children", 有多少弟子): the word counted, or
 * undefined when it asks no count. 几个 is left out: it is as often "several" as "how many".
 */
export function countedOf(question: string): string | undefined {
  const m = /\bhow many\s+(?:of\s+(?:the|his|her|their)\s+)?([a-z]+)/.exec(question) ?? /多少(?:个|位|名|次|条|种|本|件)?(\p{Script=Han}{2})/u.exec(question);
  return m?.[1];
}

/**
 * Whether a passage can answer a count: some sentence of it has a number just before what is
 * counted (three disciples, 三千弟子). A passage on children in general, or one that has a
 * child in one clause and "two" in another, does not say how many children someone had.
 */
export class CountMatcher {
  private readonly counted: QuestionMatcher;
  constructor(word: string, private readonly retrieval: Retrieval) {
    this.counted = QuestionMatcher.of(word, retrieval);
  }

  private countsIn(window: string[]): boolean {
    return window.length > 0 && this.counted.matchTerms(new Set(window)).matched > 0;
  }

  answers(passageId: string): boolean {
    if (!this.counted.liveCount) return false;
    for (const sentence of this.retrieval.sentencesOf(passageId)) {
      const words = englishTerms(sentence);
      for (let i = 0; i < words.length; i++) if (COUNT_TERMS.has(words[i]!) && this.countsIn(words.slice(i + 1, i + 3))) return true;
      const han = Array.from(sentence.replace(/[^\p{Script=Han}]+/gu, ''));
      for (let i = 0; i < han.length; i++) if (COUNT_TERMS.has(han[i]!) && this.countsIn(terms(han.slice(i + 1, i + 4).join('')))) return true;
    }
    return false;
  }
}

/** Whether a question asks the colour of something ("what color is the robe", 袈裟是什么颜色). */
export function asksColour(question: string): boolean {
  return /\bwhat colou?rs?\b|\bwhich colou?rs?\b|\bcolou?r of\b|什么颜色|啥颜色|哪种颜色|什么色|颜色是/u.test(question);
}

const COLOUR_WORDS = /\b(?:red|yellow|blue|green|black|white|purple|violet|crimson|scarlet|golden|gold|brown|grey|gray|saffron|orange|azure|vermilion|colou?rs?)\b|[红黄青蓝绿黑白紫赤朱玄缁素皂]|颜色|五色/u;

/** Whether a passage (its text or its English rendering) names a colour. */
export function namesColour(text: string, en?: string): boolean {
  return COLOUR_WORDS.test(text) || COLOUR_WORDS.test((en ?? '').toLowerCase());
}

/**
 * Works beside the classics that questions quote from and these packs do not hold: the Yijing's
 * appended commentaries (the Xici and the other wings beyond the Tuan and Xiang) and other sutras,
 * named or known by their best-known line (the Heart Sutra's "form is emptiness"; the Gospel of
 * John's "in the beginning was the Word", which is sometimes pinned on the Daodejing).
 */
const OUTSIDE_WORKS = /系辞|繫辭|大传|文言传?|说卦|序卦|杂卦|十翼|心经|心經|法华经|坛经|楞严经|\bxici\b|\bxi ci\b|great (?:commentary|treatise)|\bten wings\b|appended (?:statements|judg(?:e)?ments|remarks)|\bwenyan\b|\bheart sutra\b|\blotus sutra\b|\bplatform sutra\b|\bsurangama\b|色即是空|空即是色|\bform is emptiness\b|\bemptiness is form\b|\bin the beginning was the word\b|太初有道/iu;

/**
 * Things of the modern world that no classic can speak of: computing and its machines, networks
 * and their media, digital money and stock trading, papers and passes, and the measures of modern
 * science (cortisol, clinical trials, brain scans). Bare "AI" is left out: it is also Xu Ai and
 * Duke Ai.
 */
const MODERN_THINGS = /人工智能|机器人|区块链|比特币|加密货币|数字货币|元宇宙|互联网|智能手机|炒股|股票|股市|期货|\bstock market\b|\bday trading\b|\bindex funds?\b|\bmutual funds?\b|社交媒体|短视频|电子游戏|\bartificial intelligence\b|\b(?:generative )?ai (?:systems?|models?|chatbots?|tools?|art|assistants?)\b|\bchatgpt\b|\brobots?\b|\bcomputers?\b|\binternet\b|\bsmartphones?\b|\bsocial media\b|\bbitcoin\b|\bcrypto(?:currenc(?:y|ies))?\b|\bblockchain\b|\bvideo games?\b|\btiktok\b|\binstagram\b|\bpassports?\b|\bvisas?\b|\bdriver'?s licen[cs]e\b|\btax returns?\b|\bwi-?fi\b|\blaptops?\b|护照|签证|驾照|报税|\bcortisol\b|\bscientific (?:evidence|studies|research|proof)\b|\bclinical (?:trials?|studies)\b|\bneuroscience\b|\bbrain scans?\b|\bfmri\b|皮质醇|科学(?:证据|研究|实验)|临床(?:试验|研究)|脑科学|神经科学/iu;

/**
 * A pure test of a text that keeps its last answer: a request asks the same of its question
 * once per tradition and per step, and these tests run long patterns over the whole text.
 */
function lastAnswered(test: (text: string) => boolean): (text: string) => boolean {
  let last: string | undefined;
  let answer = false;
  return (text) => {
    if (text !== last) {
      answer = test(text);
      last = text;
    }
    return answer;
  };
}

/** Whether a question names a thing of the modern world that the classics cannot speak of. */
export const namesModernThing = lastAnswered((question) => MODERN_THINGS.test(normalize(question)));

/**
 * Whether a question asks how a classic was later given official standing (which emperor made the
 * Analects required reading for the examinations, 哪个皇帝把传习录列为科举必读), or what schools
 * grew out of it afterwards (王畿和钱德洪各自发展出了什么学派).
 */
export function asksLaterStanding(question: string): boolean {
  return /(?:发展出|形成|开创)了?(?:什么|哪些|各自的)?学派|阳明后学|对后(?:世|来)[^，。？！]{0,10}有(?:什么|哪些)影响|\b(?:later|subsequent) (?:schools?|followers)\b[^.?!]{0,30}\b(?:develop\w*|found\w*|form\w*)\b|\binfluence on later (?:schools?|thinkers|confucians)\b|\bafter (?:wang yangming|yangming|confucius|laozi|the buddha)(?:'s)? (?:died|death|passed away)\b[^.?!]{0,60}\b(?:disciples|followers|students|schools?)\b|(?:王阳明|阳明|孔子|老子)(?:死|去世|逝世)(?:了)?(?:以)?后[^，。？！]{0,20}(?:弟子|门人|后学|学派)|\brequired reading\b|\b(?:examination|exam) (?:curriculum|syllabus)\b|\bofficial (?:curriculum|canon|orthodoxy)\b|\bstate orthodoxy\b|(?:列为|定为|钦定为?|纳入)[^，。？！]{0,6}(?:科举|官学|必读|考试内容)/u.test(normalize(question));
}

/**
 * The concepts a question quotes by a Han name of three characters or more as someone's words
 * (孔子说“上善若水”, 王阳明讲过“知行合一”). quotesOf leaves such names out, since a concept's name
 * is matched through the concept; as said words they are also a line the speaker's work must have.
 */
export function attributedConcepts(question: string, concepts: Concept[]): Concept[] {
  const said = [...normalize(question).matchAll(/(?:说|讲|曰|提出|提到)过?[:：，,]?\s*[“「『"]([^”」』"]+)[”」』"]/gu)].map((m) => m[1]!.trim());
  const han = (x: string) => /^\p{Script=Han}{3,}$/u.test(x);
  return concepts.filter((c) => [c.zh, ...c.aliases].map((x) => normalize(x).trim()).some((name) => han(name) && said.includes(name)));
}

/** The traditions a question names by their schools, teachers or classics (the Confucian texts, 道家, the Buddha). */
const TRADITION_NAMES: readonly (readonly [Tradition, RegExp])[] = [
  ['confucian', /\bconfucian(?:ism|s)?\b|\bconfucius\b|\banalects\b|儒家|孔子|夫子|论语/u],
  ['daoist', /\b(?:daois[mt]|taois[mt])s?\b|\blao[ -]?(?:zi|tzu)\b|\bdaodejing\b|\btao te ching\b|道家|老子|道德经/u],
  ['buddhist', /\bbuddhis[mt]s?\b|\bbuddha\b|\bdiamond sutra\b|佛家|佛教|佛陀|金刚经/u],
  ['yangming', /\byangming\b|\bchuanxilu\b|阳明|传习录/u],
];
const traditionsAsked = (question: string): Set<Tradition> => {
  const n = normalize(question);
  return new Set(TRADITION_NAMES.filter(([, re]) => re.test(n)).map(([t]) => t));
};

/**
 * Figures of the traditions who speak in other works than these (the Buddha's disciples and
 * bodhisattvas of other sutras, the Warring States thinkers), by their Han and English names.
 */
const FIGURES: string[][] = [
  ['阿难', 'ananda'],
  ['舍利弗', '舍利子', 'sariputra', 'shariputra'],
  ['观世音', '观自在', '观音', 'avalokitesvara', 'guanyin'],
  ['文殊', 'manjushri', 'manjusri'],
  ['维摩诘', 'vimalakirti'],
  ['弥勒', 'maitreya'],
  ['孟子', 'mencius'],
  ['庄子', '庄周', 'zhuangzi', 'chuang tzu'],
  ['惠子', '惠施', 'huizi', 'hui shi'],
  ['荀子', 'xunzi'],
  ['墨子', 'mozi'],
];
const FIGURE_NAMES = FIGURES.map((names) => ({ names, re: new RegExp(names.map((n) => (/\p{Script=Han}/u.test(n) ? n : `\\b${n}\\b`)).join('|'), 'u') }));

/** The figures of FIGURES a question names, each as its list of names. */
export function figuresNamed(question: string): string[][] {
  const n = normalize(question);
  return FIGURE_NAMES.filter((f) => f.re.test(n)).map((f) => f.names);
}

/** Whether a question names one of the works beside the classics that these packs do not hold. */
export const namesOutsideWork = lastAnswered((question) => OUTSIDE_WORKS.test(question));

/**
 * Later commentators, critics and translators of the classics, whose readings these packs do not
 * hold (Wang Bi on the Daodejing, He Yan on the Analects, Liu Zongzhou on Wang Yangming,
 * Kumarajiva's translation). Zhu Xi himself is not among them, since the Chuanxilu argues with his
 * readings at length; his commentaries, named as books (论语集注, 周易本义) or as "Zhu Xi's
 * commentary", are: a passage must name him.
 */
const COMMENTATORS = '论语集注|四书章句集注|四书集注|周易本义|周易正义|程氏易传|伊川易传|孔颖达|程颐|王弼|河上公|何晏|郑玄|孔安国|皇侃|邢昺|刘宝楠|严遵|苏辙|憨山|吕惠卿|陆德明|焦竑|南怀瑾|钱穆|杨伯峻|陈鼓应|傅佩荣|鸠摩罗什|玄奘|刘宗周|黄宗羲|王夫之|顾炎武|wang bi|heshang gong|he yan|zheng xuan|cheng yi|kong yingda|legge|waley|wilhelm|d\\.? ?c\\.? lau|stephen mitchell|kumarajiva|xuanzang|qian mu|liu zongzhou|huang zongxi|wang fuzhi';
const COMMENTATOR_READING = new RegExp(
  `(${COMMENTATORS})(?:的)?[^,.，。？！?!]{0,12}(?:注|解|译|理解|认为|看法|版本|批评|评价|批判|反驳)|(?:according to|in) (${COMMENTATORS})\\b|\\b(zhu xi)(?:'s|’s)? (?:[a-z]+ ){0,2}(?:commentar(?:y|ies)|original meaning|benyi)\\b|\\b(${COMMENTATORS})(?:'s|’s)? (?:[a-z]+ ){0,3}(?:commentary|commentaries|interpretation|translation|reading|gloss|notes?|version|edition|interprets?|interpreted|translates?|translated|reads|read|explains?|explained|glosses|glossed)\\b`,
  'iu',
);

/**
 * The commentators or translators whose reading a question asks for (王弼注…怎么解释, Wang Bi's
 * commentary): what they wrote is not in these packs, so only a passage that names them could
 * speak to it.
 */
export function commentatorsAsked(question: string): string[] {
  const m = COMMENTATOR_READING.exec(normalize(question));
  return m ? [(m[1] ?? m[2] ?? m[3] ?? m[4])!] : [];
}

/** Whether a question asks someone's age ("at what age did Laozi die", 孔子活了多少岁). */
export function asksAge(question: string): boolean {
  return /\bat what age\b|\bhow old (?:exactly |precisely |really )?(?:was|were|is|did|had)\b|\bwhat age (?:was|were|did|had)\b|\bage (?:at|of) (?:his|her|their) death\b|\bhow long did [a-z ]{1,30} live\b|多大(?:年纪|岁数)?(?:时|的时候)?(?:去世|死|过世|逝世|离世)|(?:享年|终年|活了|活到|寿命)(?:多少|几|多大)|几岁|多少岁|多大岁数|多大年纪/u.test(question);
}

/** Whether a question asks in which year something happened (王阳明哪一年提出知行合一, in what year, when was he born). */
export function asksYear(question: string): boolean {
  return /哪一年|哪年|什么年份|\b(?:what|which) year\b|\bwhen (?:was|were) [a-z ]{1,30} born\b|什么时候(?:出生|生的)|(?:生|卒)于(?:哪|何)/u.test(question);
}

/**
 * Whether a question asks which work a line comes from (出自哪里, 出处, which book is it from),
 * not where in a work it names it stands (出自道德经哪一章 takes the work as given).
 */
export function asksSource(question: string): boolean {
  const n = normalize(question);
  return (
    /出自哪|出自何|出处|哪本书|哪部(?:书|经)|来源于?哪|\bwhere (?:does|did|is|was) [^?]{0,80}\b(?:come|comes|came) from\b|\bwhich (?:book|classic|text|work) (?:is|was|does|did)\b|\bthe source of\b/u.test(n) &&
    !/(?:哪|第几)(?:一)?(?:章|篇|卦|条|段|节|分)|\bwhich (?:chapter|section|passage|hexagram|book of)\b/u.test(n)
  );
}

/** A reign year or a dated year (正德三年, 元年, 1508, in the year of): not a span of years (三年之丧). */
const YEAR_WORDS = /元年|(?:正德|嘉靖|弘治|成化|贞观|开元|永乐|洪武|万历)[一二三四五六七八九十]*年|[甲乙丙丁戊己庚辛壬癸][子丑寅卯辰巳午未申酉戌亥]|\b1[0-9]{3}\b|\bin the year\b/u;

/** Whether a passage (its text or its English rendering) dates something to a year. */
export function statesYear(text: string, en?: string): boolean {
  return YEAR_WORDS.test(text) || YEAR_WORDS.test((en ?? '').toLowerCase());
}

const NUMBER_EN = 'fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|\\d+';
const AGE_WORDS = new RegExp(`(?<![百千万])[十二三四五六七八九]+(?![百千万])(?:有[一二三四五六七八九])?(?:岁|而|以)|年[十二三四五六七八九]+|\\b(?:at|age of|aged|reached|turned) (?:${NUMBER_EN})\\b|\\b(?:${NUMBER_EN}) years? (?:old|of age)\\b`, 'u');

/** Whether a passage (its text or its English rendering) states an age (三十而立, at fifty). */
export function statesAge(text: string, en?: string): boolean {
  return AGE_WORDS.test(text) || AGE_WORDS.test((en ?? '').toLowerCase());
}

/** A toneless pinyin word glossed in English in the parentheses after it: jing (quiet/still). */
const PINYIN_GLOSSED = new RegExp(`\\b${PINYIN_WORD.source.slice(1, -1)}\\b(?=\\s*\\([a-z][a-z ,/;'-]*\\))`, 'g');
/** Two or more words in a row that are each toneless pinyin (si huan er yu fang zhi). */
const PINYIN_RUN = new RegExp(`\\b${PINYIN_WORD.source.slice(1, -1)}(?:[ ,]+${PINYIN_WORD.source.slice(1, -1)})+\\b`, 'g');

/** Classical particles: a quote that has 矣 for 也 or 以 for 矣 misremembers the line, it does not alter it. */
const PARTICLE_SWAPS = new Set(Array.from('之乎者也矣焉哉而其以于兮夫与欤耶邪'));
/** The modern passive 被 for the classical 为 (被人轻贱 for 为人轻贱) puts the line in today's words. */
const PASSIVE = new Set(['被', '为']);

/**
 * Characters that popular quotation writes for the received text's (福之所依 for 福之所倚, 疏而不漏
 * for 疏而不失), or types for them because they look alike (已所不欲 for 己所不欲): each group read
 * as its first character, so a quote in the popular form is the line, not a change of it.
 */
const QUOTED_VARIANTS: readonly string[] = ['倚依', '失漏', '己已巳'];
const VARIANT_OF = new Map(QUOTED_VARIANTS.flatMap((group) => Array.from(group).map((c) => [c, group[0]!] as const)));
export const asReceived = (text: string) => Array.from(text, (c) => VARIANT_OF.get(c) ?? c).join('');

/**
 * Whether a passage's text has a clause of a quote with one character changed, and not the
 * clause itself: 上善若火 against 上善若水, 己所不欲，必施于人 against 勿施于人. Such a quote is
 * a made-up line built on a real one, and the passage does not say it.
 */
export function altered(clause: string, text: string): boolean {
  if (text.includes(clause)) return false;
  const q = Array.from(clause);
  const t = Array.from(text);
  // The clause in today's passive (被人轻贱 for 为人轻贱) is the line itself, wherever else one
  // character differs (世人轻贱 a few lines on).
  const same = (a: string, b: string) => a === b || (PASSIVE.has(a) && PASSIVE.has(b));
  for (let i = 0; i + q.length <= t.length; i++) if (q.every((c, j) => same(c, t[i + j]!))) return false;
  for (let i = 0; i + q.length <= t.length; i++) {
    let changed = -1;
    let misses = 0;
    for (let j = 0; j < q.length && misses < 2; j++) {
      if (q[j] !== t[i + j]) {
        misses++;
        changed = j;
      }
    }
    const a = q[changed]!;
    const b = t[i + changed]!;
    if (misses === 1 && !(PARTICLE_SWAPS.has(a) && PARTICLE_SWAPS.has(b)) && asReceived(a) !== asReceived(b)) return true;
  }
  return false;
}

/**
 * Characters that negate the verb after them (不以智治国). 非 and 无 are left out: 非 may deny a
 * whole clause that is also quoted on its own (非其鬼不神，其神不伤人), and 无 is often a noun
 * (当其无，有车之用).
 */
const NEGATIONS = new Set(Array.from('不弗勿毋'));

/** Whether the texts have the clause only right after a negation the clause itself leaves off. */
export function negationLeftOff(clause: string, texts: string[]): boolean {
  if (NEGATIONS.has(clause[0]!)) return false;
  let found = false;
  for (const t of texts) {
    for (let i = t.indexOf(clause); i >= 0; i = t.indexOf(clause, i + 1)) {
      if (i === 0 || !NEGATIONS.has(t[i - 1]!)) return false;
      found = true;
    }
  }
  return found;
}

/**
 * Whether the text has the clause with one particle in place of another (豫兮若冬涉川 for the
 * received 豫焉若冬涉川): editions and memory differ in particles, and the line is still the line.
 */
export function particleSwapped(clause: string, text: string): boolean {
  const q = Array.from(clause);
  const t = Array.from(text);
  outer: for (let i = 0; i + q.length <= t.length; i++) {
    let swapped = false;
    for (let j = 0; j < q.length; j++) {
      const a = q[j]!;
      const b = t[i + j]!;
      if (a === b) continue;
      if (swapped || !PARTICLE_SWAPS.has(a) || !PARTICLE_SWAPS.has(b)) continue outer;
      swapped = true;
    }
    return true;
  }
  return false;
}

/** Whether the text has the clause with one more character inside it (无善无恶心之体 in 无善无恶是心之体). */
export function oneLeftOut(clause: string, text: string): boolean {
  const q = Array.from(clause);
  const t = Array.from(text);
  for (let i = 0; i + q.length < t.length; i++) {
    if (t[i] !== q[0]) continue;
    let skipped = 0;
    let j = 0;
    let k = i;
    while (j < q.length && skipped <= 1) {
      if (t[k] === q[j]) j++;
      else skipped++;
      k++;
    }
    // The extra character sits inside the clause, not after its end.
    if (j === q.length && skipped === 1) return true;
  }
  return false;
}

/** The share of a quoted classical line a passage must carry in one sentence to be evidence. */
export const QUOTE_FLOOR = 0.75;
/**
 * The share of a quote in modern words (自己不想要的，不要强加给别人; any English quote, a
 * translation being one rendering among many) that a passage must carry in one sentence.
 */
export const QUOTE_FLOOR_PARAPHRASE = 0.5;
/** The share of an English line a passage's rendering must carry to be that line in other words. */
const RENDERING_CARRIED = 0.8;
/**
 * A reading offered in quotation marks for checking or as the gist of a line: 是不是就是“…”,
 * 意思是“…”, 大意是“…”, 理解成“…”.
 */
const GLOSS_OFFERED = /(?:是不是|难道|大意是|大概意思是|意思大概是|意思是|理解(?:成|为)|解释(?:成|为)|等于|就是说)(?:就是|说|指)?\s*[“"「『]([^”"」』]+)[”"」』]/gu;
/** A name in quotation marks the asker gives a habit or view: 这种“先知后行”的毛病, 所谓“躺平”. */
const LABELLED = /(?:这种|这类|那种|所谓的?)\s*[“"「『]([^”"」』]{2,8})[”"」』]|[“"「『]([^”"」』]{2,8})[”"」』](?:式的?|的)(?:毛病|问题|做法|心态|习惯|思路|态度|倾向|想法|说法)/gu;

/**
 * A reading offered without quotation marks for checking, up to the end of its clause: 礼是不是就是
 * 一堆繁文缛节？ The asker's own words for what they doubt (繁文缛节) are no words a passage must carry.
 */
const GLOSS_UNQUOTED = /(?:是不是|难道|是否)(?:就|只|仅仅)?(?:是|等于|意味着)(?![“"「『])([^，。？！?,!；;“"「『]{2,16})(?=[？?，,。；;]|$)/gu;

/** Characters and words of modern Chinese: a quote that has them rewords a line rather than cites it. */
const MODERN_WORDING = /[的了吗呢吧们您]|就是|就像|自己|别人|不要|什么|怎么|这个|那个|一个|我们|你们|他们|没有|因为|所以|如果|但是|可以|应该/u;

/**
 * The share of the question's (rarity-weighted) content a passage must carry to count as
 * evidence. A question that names a classic is held to a lower floor, since the classic it names
 * is already known to be what it asks about; an unnamed question must match more. Either way a
 * passage must carry at least as much of the question as no classic can carry at all (its
 * unknownShare): what the classics say of 工作 does not answer a question about 人工智能.
 */
export const RELEVANCE_FLOOR = 0.5;
export const RELEVANCE_FLOOR_NAMED = 0.3;
/** How much of the question a situation's own phrasings must share to speak for it. */
export const SITUATION_FLOOR = 0.28;
/** A situation matched this closely speaks for the story even when the question names a classic. */
export const SITUATION_CLOSE = 0.5;
/** A situation matched this closely is the story told in one of its own phrasings. */
const SITUATION_TOLD = 0.8;
/** Places kept for such a situation's passages. */
const RESERVED_TOLD = 3;
/** The most relevance a passage reached through a situation takes (see selectEvidence). */
const SITUATION_RELEVANCE_CAP = 0.5;

export function scopeFor(intent: Intent, requested: RetrievalScope): RetrievalScope {
  if (requested.packIds || requested.traditions) return requested;
  return intent.packsNamed.length ? { packIds: intent.packsNamed } : {};
}

/**
 * Whether a question names a concept by more than one everyday English word: by a Han name (a
 * one-character name in an everyday word, 空 in 太空, is no mention to begin with), its
 * romanisation, or an English name of several words (innate knowing). "empty", "diamond" and
 * "nature" alone are everyday words as often as names. With `phrasesOnly`, only a lower-case
 * English name of several words counts, found as whole words (in the question as asked).
 */
function namedFully(concept: Concept, content: string, phrasesOnly = false): boolean {
  return [concept.zh, concept.zh_traditional, concept.pinyin, concept.pinyin_plain, concept.en, ...concept.aliases].some((name) => {
    const n = normalize(name ?? '').trim();
    if (!n) return false;
    // A capitalised name ("the One", "the Way") is a name only when written so, which the question
    // as normalised no longer shows ("the one where Laozi dreams").
    if (phrasesOnly) return name === name?.toLowerCase() && /^[a-z]+(?:[\s-][a-z]+)+$/.test(n) && new RegExp(`\\b${n}\\b`).test(content);
    const romanised = n === normalize(concept.pinyin_plain ?? '');
    const strong = /\p{Script=Han}/u.test(n) || /[\s-]/.test(n) || romanised;
    return strong && (content.includes(n) || (romanised && spacedSyllables(n).test(content)));
  });
}

/**
 * A romanised name written with spaces between its syllables, or some of them (zhi xing he yi
 * for zhixingheyi), as whole words. Names shorter than four letters (ren, li) are left out: they
 * would find themselves across everyday words.
 */
function spacedSyllables(name: string): RegExp {
  if (!/^[a-z]{4,}$/.test(name)) return /(?!)/;
  return new RegExp(`\\b${Array.from(name).join(' ?')}\\b`);
}

/** Whether a question names a concept by a name of two characters or more, or in Latin letters. */
function namedByWord(concept: Concept, content: string): boolean {
  return [concept.zh, concept.zh_traditional, concept.pinyin, concept.pinyin_plain, concept.en, ...concept.aliases].some((name) => {
    const n = normalize(name ?? '').trim();
    return !!n && (!/\p{Script=Han}/u.test(n) || Array.from(n).length >= 2) && content.includes(n);
  });
}

/**
 * Whether a sentence gives, without quotation marks, four or more Han characters in a row that a
 * retrieved passage has word for word: "how should I understand 以直报怨" asks about Analects 14.34.
 */
function givesLine(sentence: string, hits: Hit[], retrieval: Retrieval): boolean {
  const windows: string[] = [];
  for (const run of sentence.match(/\p{Script=Han}{4,}/gu) ?? []) {
    const cs = Array.from(run);
    for (let i = 0; i + 4 <= cs.length; i++) windows.push(cs.slice(i, i + 4).join(''));
  }
  return windows.length > 0 && hits.some((h) => windows.some((w) => retrieval.textOf(h.passage.id).includes(w)));
}

/** The classics called by what they are, not by name: these books, the sages, 古人, 经里. */
const THE_CLASSICS = /\b(?:the|these|those|your) (?:classics|books|texts|scriptures|sutras?|sages|ancients|old masters)\b|\bancient (?:sages|masters|texts|wisdom)\b|古人|先贤|圣贤|圣人|经典|古书|经书|(?:^|[\s,，。？！?!;；、])(?:经|书)(?:里|中)/u;

/** Words by which a sentence points back at what came before it (it, this, do the same, 这种, 此事). */
export const REFERS_BACK = /\b(?:it|this|that|these|those|them|such|same|likewise)\b|这|那|此/u;

/**
 * The sentence a question asks in, when it first tells a situation: 最近刚升职，感觉自己有点飘了。
 * 道德经对事情做成之后应该怎么自处？ asks the second sentence. Undefined for a one-sentence question.
 * A last sentence that only points back ("What does it actually say?") asks with the one before
 * it ("A friend said I should read the Yijing hexagram about modesty"), when a story precedes both.
 */
export function askingSentence(content: string): string | undefined {
  const sentences = content
    .split(/[。！？!?；;\n]|\.(?:\s|$)/u)
    .map((x) => x.trim())
    .filter((x) => questionTerms(x).length > 0);
  if (sentences.length < 2) return undefined;
  const last = sentences[sentences.length - 1]!;
  const pointsBack = REFERS_BACK.test(last) && questionTerms(last).length < 2;
  return pointsBack && sentences.length >= 3 ? `${sentences[sentences.length - 2]}. ${last}` : last;
}

const HEXAGRAM_LINE = /^(Yijing \d+ \([^)]+\)) line \d+$/;

/** A question asking which line of a hexagram a line is. */
const ASKS_WHICH_LINE = /\bwhich line\b|哪一?爻|第几爻/u;

/** A quote's Han characters alone: editions punctuate one line differently. */
const hanOnly = (text: string) => text.replace(/[^\p{Script=Han}]/gu, '');

/** The classical lines a question quotes: four Han characters or more, however punctuated. */
const classicalLines = (quotes: QuoteMatcher[]) => quotes.filter((q) => q.floor === QUOTE_FLOOR && Array.from(hanOnly(q.text)).length >= 4);

/**
 * Whether a passage's own text has a quoted line word for word (popular variants read as the
 * received text). Only its own words count: a passage's claims may name the line beside it
 * (上九's claims mention 飞龙在天), or the chapter a line comes from.
 */
const hasWordForWord = (q: QuoteMatcher, id: string, retrieval: Retrieval) => asReceived(retrieval.hanTextOf(id)).includes(asReceived(hanOnly(q.text)));

/**
 * Whether the question points at a hexagram's line and quotes a classical line that another line
 * of the same hexagram has word for word and the one pointed at does not.
 */
function misplacedLine(references: Passage[], quotes: QuoteMatcher[], k: Knowledge, retrieval: Retrieval): boolean {
  const lines = references.filter((p) => HEXAGRAM_LINE.test(p.locator));
  if (!lines.length) return false;
  const otherLines = (p: Passage) => {
    const hexagram = HEXAGRAM_LINE.exec(p.locator)![1]!;
    return [1, 2, 3, 4, 5, 6].map((n) => k.passageByLocator.get(`${hexagram} line ${n}`)).filter((o): o is Passage => !!o && o.id !== p.id);
  };
  if (classicalLines(quotes).some((q) => lines.every((p) => !hasWordForWord(q, p.id, retrieval) && otherLines(p).some((o) => hasWordForWord(q, o.id, retrieval))))) return true;
  // An English line ("flying dragon in the heavens" given as Qian's top line) is the line whose
  // rendering has most of its words, when the line pointed at has at most half of them and the
  // other has at least a third more (a quote may add words the rendering puts otherwise:
  // "great good fortune").
  return quotes.some((q) => {
    const terms = quoteTerms(q);
    return (
      terms.length >= 3 &&
      lines.every((p) => {
        const own = sharedShare(terms, p.en);
        return own <= 0.5 && otherLines(p).some((o) => sharedShare(terms, o.en) >= Math.max(0.6, own + 0.34));
      })
    );
  });
}

/** The content words of an English quote; none for a Chinese one. */
function quoteTerms(q: QuoteMatcher): string[] {
  if (/\p{Script=Han}/u.test(q.text)) return [];
  return [...new Set(englishTerms(normalize(q.text)))].filter((t) => !GENERIC_ENGLISH.has(t));
}

/** The share of these words that an English rendering has. */
function sharedShare(terms: string[], en: string | undefined): number {
  const own = new Set(englishTerms(normalize(en ?? '')));
  return terms.filter((t) => own.has(t)).length / terms.length;
}

/**
 * Whether the question points at numbered chapters or sections of one classic (not a hexagram,
 * whose parts quote one another) and quotes a classical line that none of them has and a
 * retrieved passage of the same classic has word for word.
 */
function misplacedInClassic(references: Passage[], quotes: QuoteMatcher[], hits: Hit[], retrieval: Retrieval): boolean {
  if (!references.length || references.some((p) => p.packId === 'yijing' || p.packId !== references[0]!.packId)) return false;
  const sameClassic = (h: Hit) => h.passage.packId === references[0]!.packId && !references.includes(h.passage);
  const has = (q: QuoteMatcher, id: string) => hasWordForWord(q, id, retrieval);
  if (classicalLines(quotes).some((q) => references.every((p) => !has(q, p.id)) && hits.some((h) => sameClassic(h) && has(q, h.passage.id)))) return true;
  // An English line, translated one way or another, is the passage whose rendering shares a third
  // of its words or more ("a journey of a thousand miles begins with a single step": chapter 64's
  // "a journey of a thousand li"), when the chapter pointed at shares next to none of them.
  return quotes.some((q) => {
    const terms = quoteTerms(q);
    if (terms.length < 4) return false;
    return references.every((p) => sharedShare(terms, p.en) < 0.2) && hits.some((h) => sameClassic(h) && sharedShare(terms, h.passage.en) >= 0.33);
  });
}

/**
 * Evidence: passages the question names, passages linked to the concepts it names, and retrieved
 * passages whose share of the question's content terms reaches the relevance floor. Anything
 * below the floor is not evidence, however high it ranks: a weak match must not be stretched.
 * A named concept's own key passages are taken first, then the rest in retrieval's order.
 *
 * A question that tells a situation before it asks (I was promoted and feel full of myself;
 * what does the Daodejing say about how to behave once the work is done?) is matched both as a
 * whole and by its asking sentence alone: the story is context in words no classic uses
 * (promoted, 升职), and must not drown what is asked.
 */
export function selectEvidence(intent: Intent, hits: Hit[], k: Knowledge, retrieval: Retrieval, scope: RetrievalScope, max = 5): Evidence[] {
  const inScope = (p: Passage) =>
    (!scope.packIds || scope.packIds.includes(p.packId)) && (!scope.traditions || scope.traditions.includes(p.tradition as Tradition));
  const chosen = new Map<string, Evidence>();

  // The Han names of the concepts the question names are part of what it asks about.
  // A concept named in another script (wu wei, wúwéi) is matched by its Han name, not by its
  // romanisation, which would also hit names like the state of Wei.
  const withoutRomanisation = (text: string) => {
    let out = text;
    for (const c of intent.concepts) {
      for (const alias of [c.pinyin_plain, c.pinyin, ...c.aliases]) if (alias && !/\p{Script=Han}/u.test(alias)) out = out.split(normalize(alias)).join(' ');
      if (c.pinyin_plain) out = out.replace(new RegExp(spacedSyllables(normalize(c.pinyin_plain)).source, 'g'), ' ');
    }
    // A Chinese question that gives a line in pinyin beside its characters (si huan er yu fang zhi
    // （思患而豫防之）) asks about the characters: the romanisation is no English of its own.
    if (intent.lang === 'zh') out = normalize(out).replace(PINYIN_RUN, ' ');
    // An English question that glosses a romanised word in parentheses (the word jing
    // (quiet/still)) asks about what the gloss says: the romanisation is no English of its own.
    else if (out.includes('(')) out = normalize(out).replace(PINYIN_GLOSSED, ' ');
    return out;
  };
  const names = intent.concepts.map((c) => c.zh).join(' ');
  // A question that also asks about something else keeps that, without the reading it offers.
  const unglossed = normalize(intent.content).replace(GLOSS_UNQUOTED, ' ');
  const asksBeside = unglossed !== normalize(intent.content) && questionTerms(unglossed).length >= 2;
  const whole = QuestionMatcher.of(`${withoutRomanisation(asksBeside ? unglossed : intent.content)} ${names}`, retrieval);
  const asking = intent.kind === 'situational' ? askingSentence(intent.content) : undefined;
  // An asking sentence that points back at the story with little of its own (对这种情况怎么说)
  // cannot stand for the question without it; nor can one that does not ask the classics
  // ("How do I fix it?"; "I want to learn the guitar. What's a good beginner model?").
  const asked = intent.question === undefined ? undefined : askingSentence(intent.question);
  const asksByName = asked === undefined || namesClassic(asked) || retrieval.detectConcepts(asked).length > 0 || givesLine(asked, hits, retrieval);
  // Naming only a tradition (儒家会怎么看这种事) points at no passage the way a classic's name does.
  const asksByWork = asked === undefined || namesWork(asked) || retrieval.detectConcepts(asked).length > 0 || givesLine(asked, hits, retrieval);
  // "Is there anything in these books about ..." asks the classics too, but names nothing to anchor it.
  const asksClassics = asksByName || THE_CLASSICS.test(asked);
  const askingMatcher = asking && asksClassics ? QuestionMatcher.of(`${withoutRomanisation(asking)} ${names}`, retrieval) : undefined;
  const standsAlone = askingMatcher && (!REFERS_BACK.test(asking!) || askingMatcher.liveCount >= 2);
  const matchers = [whole, ...(askingMatcher && standsAlone ? [askingMatcher] : [])];
  // A comparison asks each side about its own words: a concept of one tradition the question
  // names (梦幻泡影 for "how the Diamond Sutra views impermanence") is not asked of the other
  // side's passages (what the Analects says about mourning), which are matched without its name,
  // on the question's own words, English ones included (learning, not 学).
  const sided = intent.kind === 'comparative' ? new Set(intent.concepts.map((c) => c.tradition)) : undefined;
  const bare = sided && !sided.has('common') && names ? QuestionMatcher.of(intent.content, retrieval) : undefined;
  const matchersFor = (p: Passage) => (bare && !sided!.has(p.tradition) ? [bare, ...matchers.slice(1)] : matchers);
  const floor = intent.packsNamed.length ? RELEVANCE_FLOOR_NAMED : RELEVANCE_FLOOR;
  // A question that quotes a line asks about that line: a passage without it is no evidence,
  // however much of the rest it shares (a made-up or altered quote has no passage).
  // A comparison quotes one side and asks about the other: there the quote names a side only.
  // Quotes are read from the question as asked: the question words taken out of its content
  // ("sees", "说") may be words of the quote.
  let quotes = intent.kind === 'comparative' ? [] : quotesOf(intent.question ?? intent.content, intent.concepts).map((q) => new QuoteMatcher(q, retrieval));
  // A comparison is also looked for by what it compares, without the words that frame it: "shows up
  // a lot", "the same way" would otherwise rank each classic's passages on those words.
  if (intent.kind === 'comparative' && intent.content) {
    const seen = new Set(hits.map((h) => h.passage.id));
    const extra = retrieval.search(intent.content, scope, 10).filter((h) => !seen.has(h.passage.id));
    if (extra.length) hits = [...hits, ...extra];
  }
  // A quoted line is also looked for on its own: a short line of common words ("those who know do
  // not speak") is lost among the passages the whole question's words rank first.
  if (quotes.length) {
    const seen = new Set(hits.map((h) => h.passage.id));
    const extra = quotes.flatMap((q) => retrieval.search(q.text, scope, 5)).filter((h) => !seen.has(h.passage.id) && (seen.add(h.passage.id), true));
    if (extra.length) hits = [...hits, ...extra];
  }
  // Two lines quoted together (“天行健，君子以自强不息；地势坤，君子以厚德载物”) may be two passages'
  // (the Images of Qian and Kun): a quote no passage carries whole is read line by line when each
  // of its lines is some passage's.
  quotes = quotes.flatMap((q) => {
    const lines = q.floor === QUOTE_FLOOR ? q.text.split(SENTENCE_END).filter((line) => Array.from(hanOnly(line)).length >= 3) : [];
    if (lines.length < 2 || hits.some((h) => q.carries(h.passage.id))) return [q];
    const parts = lines.map((line) => new QuoteMatcher(line, retrieval));
    const seen = new Set(hits.map((h) => h.passage.id));
    const found = parts.flatMap((part) => retrieval.search(part.text, scope, 5).filter((h) => part.carries(h.passage.id)));
    if (!parts.every((part) => found.some((h) => part.carries(h.passage.id)))) return [q];
    hits = [...hits, ...found.filter((h) => !seen.has(h.passage.id) && (seen.add(h.passage.id), true))];
    return parts;
  });
  const genuine = quotes.filter((q) => !q.alteredIn(hits.map((h) => h.passage.id)));
  // A question that asks how many of something is answered only by a passage that counts it.
  // A situation may count things in its story (算自己捐了多少): only its asking sentence can ask a count.
  const countText = intent.question ?? intent.content;
  const counted = countedOf(intent.kind === 'situational' ? (askingSentence(countText) ?? countText) : countText);
  const count = counted === undefined ? undefined : new CountMatcher(counted, retrieval);
  // A question that asks what colour something is is answered only by a passage that names a colour.
  const colour = asksColour(intent.question ?? intent.content);
  // One that asks someone's age (at what age did Laozi die) only by a passage that states an age.
  const age = asksAge(intent.question ?? intent.content);
  // One that asks the year something happened only by a passage that dates something.
  const year = asksYear(intent.question ?? intent.content);
  // The quoted classical lines (Han, not modern wording): editions differ in punctuation but not
  // in words, unlike English renderings, which differ from translator to translator.
  const classical = genuine.filter((q) => q.floor === QUOTE_FLOOR);
  // A line the question says comes from a work these packs do not hold (the Xici's "one yin and
  // one yang is called the Dao") is evidenced only by a passage that has the line itself: an
  // English rendering that merely shares its words (yin, yang, Dao) is not that line.
  const outside = namesOutsideWork(intent.question ?? intent.content);
  // A question on how a later commentator read a line (王弼注…怎么解释) needs a passage naming them.
  const commentators = commentatorsAsked(intent.question ?? intent.content);
  const namesCommentator = (p: Passage) => commentators.every((name) => retrieval.textOf(p.id).includes(name) || normalize(p.en ?? '').includes(name));
  // What the question asks of any passage (a count, a colour, an age, a year, a commentator), and
  // then what it asks of a passage found by its words: the line it quotes.
  const fits = (p: Passage) =>
    (!count || count.answers(p.id)) && (!colour || namesColour(retrieval.textOf(p.id), p.en)) && (!age || statesAge(retrieval.textOf(p.id), p.en)) && (!year || statesYear(retrieval.textOf(p.id), p.en)) && namesCommentator(p);
  // A Chinese quote in modern wording that no passage carries is the asker's own gloss offered for
  // checking (是不是就是“知道了就赶紧去做”这么简单), not a line to find: it holds no passage back.
  // One attributed to a classic (孔子说过“加班就是君子之道”) is still a line to find, and finds nothing.
  const offered = new Set([...normalize(intent.question ?? intent.content).matchAll(GLOSS_OFFERED)].map((m) => m[1]!.trim()));
  // So is a name the asker gives a habit in quotation marks (这种“先知后行”的毛病) that no passage has.
  const labelled = new Set([...normalize(intent.question ?? intent.content).matchAll(LABELLED)].map((m) => (m[1] ?? m[2])!.trim()));
  const glosses = new Set(quotes.filter((q) => ((q.modernHan && offered.has(q.text)) || labelled.has(q.text)) && !hits.some((h) => q.carries(h.passage.id))));
  const held = quotes.filter((q) => !glosses.has(q));
  const quoted = (p: Passage) => (!held.length || genuine.some((q) => !glosses.has(q) && (!outside || q.floor === QUOTE_FLOOR) && q.carries(p.id))) && fits(p);
  // A passage the question points to is evidence, unless the question quotes a classical line
  // that neither it nor any other passage has (坤卦里“积善之家…”是哪一爻: the line is from a
  // commentary these texts do not hold), or asks of it what it does not give (王弼注道德经第一章:
  // the chapter does not name Wang Bi).
  const nowhere = classical.filter((q) => !hits.some((h) => q.carries(h.passage.id)));
  // A question that gives a real line and then one the texts do not have (“道法自然”后面还有一句
  // “自然法无”) asks about a line that is not there: the real one is no evidence for it.
  if (nowhere.length && nowhere.length < classical.length) return [];
  // So does one that gives a line with a character changed (第八章说水“处众人之所好” for 所恶),
  // even of the passage it points to: what it asks rests on the changed line. A name of four
  // characters or fewer quoted in a life story (离“圣贤之学”越来越远) is the story's own phrase.
  const phraseInStory = (q: QuoteMatcher) => intent.kind === 'situational' && Array.from(hanOnly(q.text)).length <= 4;
  if (quotes.some((q) => q.floor === QUOTE_FLOOR && !genuine.includes(q) && !phraseInStory(q))) return [];
  // A concept's name quoted as what a classic says (《论语》里孔子说“上善若水”) gives that classic
  // the concept's line; when none of the concept's key passages is in scope, the question rests on
  // a misattribution. The names are not the lines word for word (功成身退 for 功遂身退), so the
  // key passages stand for them.
  const given = attributedConcepts(intent.question ?? intent.content, intent.concepts);
  if (given.some((c) => c.key_locators.length && !c.key_locators.some((l) => { const p = k.passageByLocator.get(l); return p && inScope(p); }))) return [];
  // A figure the classics in scope never name (Ananda in the Diamond Sutra, Mencius in the Analects)
  // cannot have said or heard anything there: the question rests on a made-up scene.
  const figures = figuresNamed(intent.question ?? intent.content);
  if (figures.length) {
    const inScopePassages = [...k.passageById.values()].filter(inScope);
    const named = (names: string[]) => inScopePassages.some((p) => names.some((name) => (/\p{Script=Han}/u.test(name) ? retrieval.textOf(p.id).includes(name) : normalize(p.en ?? '').includes(name))));
    if (figures.some((names) => !named(names))) return [];
  }
  // What a classic says about a modern thing (artificial intelligence, bitcoin, social media) it
  // cannot say: a passage sharing its other words (the Dao, follow) would only stretch a weak match.
  // A story that mentions one (刷短视频到半夜) still asks about the asker's life, and a question that
  // points at a passage or quotes a line asks about that passage.
  // So is how a classic was later made official (which emperor made it required reading for the
  // examinations): that history happened after the texts and is not in them.
  if (intent.kind !== 'situational' && !intent.references.length && !classical.length && (namesModernThing(intent.question ?? intent.content) || asksLaterStanding(intent.question ?? intent.content))) return [];
  // An English line that no passage in scope renders but one outside it does (the Qian hexagram
  // "does nothing, yet nothing is left undone", a Daodejing line) is held to the passage pointed
  // at the same way. A line no passage renders at all is only translated differently.
  const elsewhere = (q: QuoteMatcher) => retrieval.search(q.text, {}, 10).some((h) => !inScope(h.passage) && q.carries(h.passage.id));
  const unrendered = intent.references.length ? genuine.filter((q) => q.floor !== QUOTE_FLOOR && !glosses.has(q) && !hits.some((h) => q.carries(h.passage.id)) && elsewhere(q)) : [];
  // An English line given to a classic the question names, which none of that classic's passages
  // renders but another classic's renders nearly word for word ("the Way of Heaven has no
  // favourites" given to the Analects: it is Daodejing 79), is misattributed: the named classic
  // does not say it. A line that keeps a concept's long English name is such a line too.
  if (intent.kind !== 'comparative' && intent.packsNamed.length && !intent.references.length) {
    const lines = quotesOf(intent.question ?? intent.content).map((q) => new QuoteMatcher(q, retrieval)).filter((q) => q.floor !== QUOTE_FLOOR && !q.modernHan && !/\p{Script=Han}/u.test(q.text));
    const renderedElsewhere = (q: QuoteMatcher) => retrieval.search(q.text, {}, 10).some((h) => !inScope(h.passage) && q.carried(h.passage.id) >= RENDERING_CARRIED);
    if (lines.some((q) => !hits.some((h) => q.carries(h.passage.id)) && renderedElsewhere(q))) return [];
  }
  // A line the question gives from a work these packs do not hold must be the passage's own.
  const borrowed = outside ? genuine.filter((q) => q.floor !== QUOTE_FLOOR && !glosses.has(q)) : [];
  // A hexagram's line quoted under another line's name (乾卦上九“飞龙在天”: it is the fifth line's)
  // is a line misplaced: what the question says of it rests on the wrong line.
  // A concept's name quoted as the line (“亢龙有悔”, “上善若水”) counts here as the line it names.
  // A question that asks which line it is (which line is 'the dragon that goes too high'?) places
  // no line: it asks where the line is.
  const named = intent.references.length ? quotesOf(intent.question ?? intent.content).map((q) => new QuoteMatcher(q, retrieval)) : [];
  if (!ASKS_WHICH_LINE.test(normalize(intent.question ?? intent.content)) && misplacedLine(intent.references, named, k, retrieval)) return [];
  // So is a classical line given to a chapter or section that lacks it, when another of the same
  // classic has it word for word (第一章说“道生一，一生二”: it is chapter 42's).
  if (misplacedInClassic(intent.references, named, hits, retrieval)) return [];
  for (const p of intent.references) if (inScope(p) && fits(p) && [...nowhere, ...unrendered, ...borrowed].every((q) => q.carries(p.id))) chosen.set(p.id, { passage: p, basis: 'reference', relevance: 1 });
  const conceptIds = new Set(intent.concepts.map((c) => c.id));
  // A concept named only by one everyday word ("empty", "diamond", 空) may be that word in its
  // everyday sense; when much of the question is in words no classic has (I feel empty after my
  // breakup; which skincare products...), its passages must carry the question like any other.
  const content = unquoteShort(normalize(intent.content));
  // A name of several words is looked for in the question as asked: "the mean" loses its "the" to
  // the question words taken out of the content.
  const asAsked = normalize(intent.question ?? intent.content);
  const byPhrase = new Set(intent.concepts.filter((c) => namedFully(c, asAsked, true)).map((c) => c.id));
  const weak = new Set(intent.concepts.filter((c) => !namedFully(c, content) && !byPhrase.has(c.id)).map((c) => c.id));
  const weakFloor = Math.max(floor, whole.unknownShare);
  // A concept named by one Han character (明 in 明朝 when 明朝 is not known as an everyday word)
  // is held to the share of the question no classic has: its passages must carry at least that.
  const single = new Set(intent.concepts.filter((c) => !weak.has(c.id) && !byPhrase.has(c.id) && !namedByWord(c, content)).map((c) => c.id));
  const floorOf = (id: string) => (weak.has(id) ? weakFloor : single.has(id) ? whole.unknownShare : 0);
  const keyPassages = new Set(intent.concepts.flatMap((c) => c.key_locators.map((l) => k.passageByLocator.get(l)?.id)));
  const candidates: (Evidence & { coverage: number; askingOnly?: boolean })[] = [];
  for (const hit of hits) {
    if (chosen.has(hit.passage.id) || !inScope(hit.passage) || !quoted(hit.passage)) continue;
    let best = 0;
    let linkedCoverage = 0;
    let byWhole = false;
    for (const question of matchersFor(hit.passage)) {
      const { coverage, matched } = question.match(hit.passage.id);
      linkedCoverage = Math.max(linkedCoverage, coverage);
      if (coverage >= Math.max(floor, question.unknownShare) && matched >= Math.min(2, question.specificCount)) {
        best = Math.max(best, coverage);
        if (question === whole || question === bare) byWhole = true;
      }
    }
    // A classical line the question quotes, found in the passage, is what the question asks about,
    // however many words it spends on asking (有句话叫“后生可畏”，后面好像还接了一句…原文到底怎么说的).
    // So is an English line the passage's rendering carries nearly word for word ("follow what my
    // heart desires without overstepping the line"): renderings differ, but not that little.
    if (!best && (classical.some((q) => q.carries(hit.passage.id)) || genuine.some((q) => q.floor !== QUOTE_FLOOR && q.carried(hit.passage.id) >= RENDERING_CARRIED))) best = floor;
    const conceptLinked = hit.conceptIds.some((id) => conceptIds.has(id) && linkedCoverage >= floorOf(id));
    if (conceptLinked && linkedCoverage > 0) {
      // A named concept's own key passage says most about it; any passage linked to it counts.
      const least = keyPassages.has(hit.passage.id) ? 0.8 : 0.75;
      candidates.push({ passage: hit.passage, basis: 'concept', relevance: least + (1 - least) * linkedCoverage, coverage: linkedCoverage });
    } else if (best > 0) {
      candidates.push({ passage: hit.passage, basis: 'match', relevance: best, coverage: best, askingOnly: !byWhole });
    }
  }
  // A named concept's key passages first, then retrieval's order (the sort is stable): the
  // ranking weighs the passage's text, rendering and claims together, and orders the passages
  // that pass the floor better than the floor's own share does.
  candidates.sort((a, b) => Number(keyPassages.has(b.passage.id)) - Number(keyPassages.has(a.passage.id)));
  // A quoted line is best carried by the passage that has it within one sentence: among passages
  // that share its words ("know", "speak" in many chapters), that one comes first.
  if (genuine.length) {
    const share = new Map(candidates.map((c) => [c.passage.id, Math.max(...genuine.map((q) => q.carried(c.passage.id)))]));
    candidates.sort((a, b) => share.get(b.passage.id)! - share.get(a.passage.id)!);
  }
  // A comparison between named classics needs each of them, and so does any question that names
  // several ("Laozi says ..., Confucius ..., and the Diamond Sutra ...: the same point?"): their
  // candidates take turns.
  if (intent.packsNamed.length >= 2) {
    const byPack = intent.packsNamed.map((id) => candidates.filter((c) => c.passage.packId === id));
    const rest = candidates.filter((c) => !intent.packsNamed.includes(c.passage.packId));
    const turns: typeof candidates = [];
    for (let i = 0; byPack.some((list) => i < list.length); i++) for (const list of byPack) if (i < list.length) turns.push(list[i]!);
    candidates.splice(0, candidates.length, ...turns, ...rest);
  }
  // The passage that carries most of the question is evidence even when ranked below the cut
  // (a named concept's passages can fill it: 私欲难克 in Chuanxilu 122 among the 人欲 passages).
  const situations =
    intent.kind === 'situational' ? retrieval.matchSituations(intent.content, 2, contentTerms(intent.content)).filter((m) => m.coverage >= SITUATION_FLOOR && m.matched >= 2) : [];
  // A life story that matches a situation closely keeps a place for one of its passages in scope:
  // the passages that share the story's everyday words (worry, sleep, work) must not fill every place.
  const ownPassages = (situation: Situation) =>
    Object.values(situation.perspectives)
      .flatMap((view) => view?.passage_ids ?? [])
      .filter((id) => {
        const p = k.passageById.get(id);
        return p !== undefined && inScope(p) && !chosen.has(id);
      }).length;
  // One that matches almost word for word (a phrasing of it) keeps places for more of them.
  const reserved = Math.max(
    0,
    ...situations.map(({ situation, coverage }) => (coverage >= SITUATION_TOLD ? Math.min(RESERVED_TOLD, ownPassages(situation)) : coverage >= SITUATION_CLOSE ? Math.min(1, ownPassages(situation)) : 0)),
  );
  const room = Math.max(0, max - chosen.size - reserved);
  const fullest = candidates.reduce<(typeof candidates)[number] | undefined>((a, c) => (!a || c.coverage > a.coverage ? c : a), undefined);
  const taken = candidates.slice(0, room);
  if (fullest && room > 0 && !taken.includes(fullest) && taken.every((c) => c.coverage < fullest.coverage)) taken[room - 1] = fullest;
  // A passage that shares only the few words of an asking sentence that names no classic ("is
  // there anything in the classics about not being recognized") says less about a life situation
  // than the passages the situation itself rests on: those come first. So does one that shares
  // the asking words of a question naming a classic, when the situation matches closely
  // (照王阳明的说法，我这种人是不是就没法做学问了, after a day of paperwork told at length).
  const later = situations.length && (!asksByWork || situations[0]!.coverage >= SITUATION_CLOSE) ? taken.filter((c) => c.askingOnly) : [];
  for (const t of taken) {
    if (later.includes(t)) continue;
    const { coverage: _, askingOnly: __, ...c } = t;
    chosen.set(c.passage.id, c);
  }
  // A question that describes a life situation reaches the passages that situation rests on.
  // They speak to it through the situation, not in its own words: however closely the situation
  // matches, they weigh no more than SITUATION_RELEVANCE_CAP, so that their claims do not crowd
  // out those of passages matched on the question's own words when claims are weighed.
  // A story that asks one tradition ("what do the Confucian texts say", 道家怎么看) hears that
  // tradition's passages of its situation first.
  const asks = traditionsAsked(intent.question ?? intent.content);
  for (const { situation, coverage } of situations) {
    const views = Object.entries(situation.perspectives).sort(([a], [b]) => Number(asks.has(b as Tradition)) - Number(asks.has(a as Tradition)));
    for (const [, view] of views) {
      for (const id of view?.passage_ids ?? []) {
        const p = k.passageById.get(id);
        // A saying quoted in the story (同事都说他是“朽木不可雕”) is part of the story: the
        // situation's passages need not carry it.
        if (p && inScope(p) && fits(p) && !chosen.has(p.id) && chosen.size < max) chosen.set(p.id, { passage: p, basis: 'situation', relevance: Math.min(coverage, SITUATION_RELEVANCE_CAP) });
      }
    }
  }
  for (const { coverage: _, askingOnly: __, ...c } of later) if (!chosen.has(c.passage.id) && chosen.size < max) chosen.set(c.passage.id, c);
  // Concept key passages that retrieval ranked low still count when the concept is named.
  for (const concept of intent.concepts) {
    for (const locator of concept.key_locators) {
      if (floorOf(concept.id) > 0 && whole.match(k.passageByLocator.get(locator)?.id ?? '').coverage < floorOf(concept.id)) continue;
      if (chosen.size >= max) break;
      const p = k.passageByLocator.get(locator);
      if (p && inScope(p) && quoted(p) && !chosen.has(p.id)) chosen.set(p.id, { passage: p, basis: 'concept', relevance: 0.75 });
    }
  }
  return [...chosen.values()].slice(0, max);
}
