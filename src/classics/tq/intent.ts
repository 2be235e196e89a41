import type { Knowledge } from '../packs.js';
import type { Concept, Passage, Tradition } from '../model.js';
import { englishTerms, languageOf, normalize, PINYIN, withoutQuotations } from '../text.js';
import { locatorName } from '../yijing.js';

export type IntentKind = 'textual' | 'conceptual' | 'comparative' | 'situational';

export interface Intent {
  kind: IntentKind;
  lang: 'zh' | 'en';
  /** Packs the question names (道德经, the Analects, hexagram ...). */
  packsNamed: string[];
  /** Passages the question points at by locator (Analects 2.4, 道德经第八章, hexagram 54). */
  references: Passage[];
  /** A locator-style reference that names no passage (道德经第九十章): nothing to cite. */
  danglingReference: boolean;
  concepts: Concept[];
  /** The question with names of classics and question words removed: what evidence must match. */
  content: string;
  /** The question in normal form, as asked. */
  question?: string;
}

/** Whether a text names a classic, its author or its tradition (论语, Laozi, the Buddha, 佛家). */
export function namesClassic(normalized: string): boolean {
  return namesWork(normalized) || /佛陀|佛家|佛教|道家|儒家|\b(?:buddha|buddhis[mt]|daois[mt]|taois[mt]|confucian(?:ism)?)\b/.test(normalized);
}

/** Whether a text names a classic or its author (论语, Laozi), not only a tradition (儒家). */
export function namesWork(normalized: string): boolean {
  return PACK_NAMES.some(([re]) => re.test(normalized));
}

/** Where a text first names a classic or its author, or -1. */
export function firstWorkNamed(normalized: string): number {
  const at = PACK_NAMES.map(([re]) => normalized.search(re)).filter((i) => i >= 0);
  return at.length ? Math.min(...at) : -1;
}

/** Whether a question sets things side by side (一样吗, how do they differ). */
export function compares(normalized: string): boolean {
  return COMPARATIVE.test(normalized);
}

const PACK_NAMES: [RegExp, string][] = [
  [/道德经|老子|道家|daodejing|tao te ching|dao de jing|lao[ -]?(?:zi|tzu|tze|tse)/, 'daodejing'],
  [/论语|孔子|夫子|曾子|曾参|analects|analetcs|anelects|annalects|lun ?yu|confuci(?:u|ou|o)s|kongzi|zengzi|master zeng\b/, 'analects'],
  [/易经|周易|易传|彖传|象传|卦|爻|yijing|i ching|book of changes|zhouyi|hexagram|trigram|\btuan\b/, 'yijing'],
  [/金刚经|般若|须菩提|佛经|diamond sutra|vajracchedika|subhuti/, 'diamond-sutra'],
  [/传习录|王阳明|阳明|心学|chuanxilu|wang yangming|yangming/, 'chuanxilu'],
];

/**
 * A tradition as the object of a judgment or a comparison (criticizes Buddhism, what he made of
 * the Daoists, sets his teaching apart from Buddhism, borrows from it).
 */
const JUDGED_TRADITION =
  /\b(?:criticiz\w*|criticis\w*|critiqu\w*|critical of|attack\w*|reject\w*|dismiss\w*|opinion of|views? (?:of|on)|think of|thought of|make of|made of|say about|said about|against|apart from|different from|differs? from|distinguish\w*(?: [a-z']+){0,4} from|borrow\w* from)\s+(?:the\s+)?(buddhis[mt]s?|daois[mt]s?|taois[mt]s?)\b/;

/** Words that name a classic or shape a question but carry no content to match. */
const FRAME_WORDS = [
  // What a classic is asked to teach by its topic: "what lesson does each of them draw from it".
  // It needs "what" and "of", so it runs before the question words are taken out.
  /\b(?:what|which) (?:lessons?|morals?|teachings?) (?:does|do|did|would|can) (?:each(?: of them)?|they|he|she|it|both(?: of them)?) (?:draw|take|get|learn|derive)(?: from (?:it|this|that|them))?\b/g,
  // What a thing is taken to be, not the thing: "what counts as wisdom", "what qualifies as".
  /\b(?:counts?|counted|qualif(?:y|ies)|passes) as\b/g,
  // How often a classic is said to present something: "water shows up a lot in both". These
  // run before the question words below are taken out (they need "a", "in", "the", "of").
  /\b(?:show|shows|showed|showing|turn|turns|turned|crop|crops|cropped|come|comes|came) up(?: (?:a lot|often|so much|again and again|many times|repeatedly))?(?= (?:in|throughout|across)\b)/g,
  // How a classic is asked to take up a subject, not the subject: "how do they each handle questions
  // about ghosts", "treat the idea of the mean", "approach the question of death".
  /\b(?:handle|handles|handled|treat|treats|treated|deal with|deals with|dealt with|approach|approaches|approached|tackle|tackles|tackled)\s+(?:the\s+)?(?:questions?|issues?|topic|subject|matter|idea|notion|theme|concept)\s+(?:of|about|on)\b/g,
  // A classic's name with the word that places something in it (论语里, 金刚经中): 里 alone is no content.
  /(?:道德经|老子|论语|孔子|夫子|易经|周易|金刚经|传习录|王阳明|阳明先生|阳明|经典|经文|佛经)(?:里面|里头|里|当中|中)?|原文|原话|原句|这句话|这段话|这一章|这章|儒家|道家|佛家|心学|佛陀/g,
  // The classic just named, called by what it is at the start of a sentence: 经里对这种情况有说法吗.
  /(?<=^|[\s,，。？！?!;；、])(?:这部|这本|这些)?(?:经|书|经书|古书)(?:里面|里头|里|当中|中)/g,
  // Which line comes before or after a quoted one, and where it stands: 后面还有半句, 后两句,
  // 上一句, 这首偈, 哪一分, 是啥来着. The quote is what is asked about.
  /(?:前面|后面|上面|下面|接下来|前|后|上|下)(?:还有|的)?(?:一|两|二|三|四|几|半)?句|(?:这|那)首(?:偈|诗)?|(?:是)?(?:哪|第几)(?:一|个)?(?:分|篇|卦|条|章|段|节)|(?:是)?啥(?:来着)?|来着/g,
  // Which characters follow or precede a quoted phrase (子不语后面是哪四个字, 前面是什么字): the phrase is what is asked about.
  /(?:前面|后面|上面|下面|接下来|前|后)(?:是|还有|跟着|接着)?(?:哪|什么|啥)?(?:几|[一二三四五六七八九两])?(?:个)?字/g,
  // The quoted words themselves pointed at: 这四个字, 这几个字.
  /(?:这|那)(?:几|[一二三四五六七八九两]|\d)?个字/g,
  // How a question asks, not what it asks about: "how does X view / explain / comment on",
  // "what does it remind", "where does it come from", "which line".
  /(?:怎么|如何|怎样|怎么样)(?:看待|看|理解|解释|说|讲|评价|论述)|有(?:什么|何)(?:看法|说法|论述|提醒|启发|启示|讲究)|(?:什么|何种)?(?:看法|说法)|提醒|启示|认为|出自哪里|出自哪|出自|出处|(?:是)?什么意思|意思是|(?:哪|那|这)(?:一)?(?:几)?句话?|(?:哪|那|这)一?章/g,
  // What a question is about, and how the asker recalls it: 关于……的论述有哪些, 各有哪些, 我记得, 印象中.
  /关于|具体(?:是|来说|而言|讲)?(?:指|说)?|是指|指的是|(?:的)?论述|各?有哪些|哪些|(?:有没有|有无|是否)(?:讲|说|谈|提)(?:到|过)?|有没有|(?:说|讲|提)过|提到|记得|印象中|据说|所谓/g,
  // How a comparison is asked in Chinese: 态度一致吗, 是否相同, 在这个问题上分别是什么立场, 有何不同.
  /(?:的)?(?:态度|立场|看法)?(?:是否|是不是)?(?:一致|相同|相通)(?:吗)?/g,
  // What stance a classic takes (道德经对战争是什么态度): the stance is what is asked, the subject is what it is about.
  /(?:持|是)?(?:什么|怎样的?|怎么样的|何种)(?:样的)?(?:态度|立场|看法|观点)/g,
  // How much a classic is said to esteem something (道德经为什么那么推崇水, 把立志看得那么重要): the
  // thing is what is asked about.
  /(?:那么|这么|如此|特别)?(?:推崇|崇尚|推重|偏爱)|看得(?:那么|这么|如此|特别|很|非常)?(?:重要|要紧)|(?:那么|这么|如此|特别|很|非常)(?:重视|看重)/g,
  // How a classic is said to use something as a figure (老拿水来打比方, 拿水来比喻道, 水到底代表什么品质): the
  // figure is what is asked about.
  /(?:老|总|常常|经常|总是|反复)?(?:拿|用|以)(?=[\u4e00-\u9fff]{1,4}?来?(?:打比方|作比喻|做比喻|作比|比喻))|来?(?:打比方|作比喻|做比喻|作比|比喻)|(?:到底|究竟)?(?:代表|象征)(?:了)?(?:什么|哪些|怎样的)(?:品质|品格|精神|意思|道理)?/g,
  // What two answers have in common (孔子和王阳明的回答有什么相通的地方): the subject is what is compared.
  /(?:在)?这个问题上|(?:分别|各自)(?:是)?(?:什么|怎样的?|如何)?(?:立场|态度|看法|观点)?|有(?:何|什么)\s*(?:(?:不同|区别|相通|共通|共同|相同|相似)(?:的地方|之处|点)?|的地方|之处)|的回答(?=有(?:何|什么))/g,
  // "Words on it" at the end of a question (关于以身作则的话？), "this saying" (这话在哪).
  /(?:这|那)话|的话(?=\s*(?:[?？。!！]|$))/g,
  // Names of the classics and question words; "see" stays in "see through" (a person), an idiom.
  /\b(daodejing|tao te ching|dao de jing|lao[ -]?(?:zi|tzu|tze|tse)|analects|analetcs|anelects|annalects|lun ?yu|confucius|confucious|confucios|yijing|i ching|book of changes|diamond sutra|chuanxilu|wang yangming|yangming|buddha|buddhism|buddhist|daoism|daoist|taoism|taoist|confucianism|confucian|classics?|text|texts|passage|chapter|section|books?|line|hexagrams?|what|how|why|does|do|did|say|says|said|tell|teach|teaches|mean|means|meaning|about|the|a|an|of|in|on|is|are|was|were|according|view|views|think|thought|see(?!\s+through)|sees)\b/g,
  // How the asker recalls or cites it: "I vaguely remember", "there's a moment where", "the saying".
  /\b(remember|remembers|recall|recalls|vaguely|somewhere|moment|quote|quotes|quoted|saying|sayings|supposed|famous|famously|lines|verse|verses)\b/g,
  // A list left open ("returning to the root, reversal, etc", 等等): the items are what is asked about.
  /\b(?:etc|etcetera|and so on|and so forth)\b\.?|等等/g,
  // A list asked for (which eyes are listed, goes through a list of the different kinds of): the
  // things listed are what is asked about.
  /\b(?:list|lists|listed|listing|enumerates?|enumerated|enumerating)\b|\b(?:goes|go|went|going) through\b|\b(?:various|different|several|many) (?:kinds|sorts|types)\b|\bdifferent(?=\s+['"‘“])|\bquiz(?:zes|zed|zing)?\b/g,
  // How often a word is said to appear ("I see the word jing come up a lot"): the word is what is asked about.
  /\bword\b(?=\s+[a-z]+\s*\()|\b(?:comes?|came|coming|shows?|showed|showing|crops?|pops?)\s+up(?:\s+a)?\s+(?:lot|often|everywhere|so\s+much|so\s+often|again\s+and\s+again|many\s+times)\b/g,
  // How pointedly a question is put, not what it asks about: "what is it about water specifically".
  /\b(?:specifically|particularly|exactly|precisely|basically|actually|honestly|literally|philosophically)\b/g,
  // How often or how a classic is said to present something: "keeps holding up water as the thing to imitate".
  /\b(?:keep|keeps|kept) (?=[a-z]+ing\b)|\b(?:hold|holds|holding|held) up\b/g,
  // Where a line stands rather than what it says: "which chapter, and what's the context", "what
  // comes right after that line", "the next line".
  /\b(?:whats|context)\b/g,
  /\b(?:what )?(?:comes|follows|came|followed) (?:right |just |immediately |directly )?(?:after|before|next)(?: (?:that|it|this))?\b|\b(?:the )?(?:next|following|previous|preceding) (?:line|sentence|clause|verse)\b/g,
  // What the asker is not asking, and that they only wonder: "not asking for medical advice, just
  // wondering whether".
  /\bnot asking (?:you )?for (?:any )?(?:medical |legal |financial |professional )?(?:advice|a diagnosis|diagnosis|treatment)\b|\b(?:just )?(?:wondering|curious) (?:whether|if|about)\b/g,
  // What the asker hopes to be given, not what it is about: "any laozi wisdom for me?".
  /\b(?:any|some|a bit of|a little)\s+(?:[a-z]+\s+)?(?:wisdom|advice|guidance|insights?|tips|thoughts|pointers)\b(?=\s+(?:for|on|here|to|from)\b|\s*[?.!]|\s*$)/g,
  // How the asker means to meet what they ask about: "dealing with not being recognized".
  /\b(?:deal|deals|dealing|cope|copes|coping|handle|handles|handling) with\b/g,
  // How a classic is said to treat its topic: "how do X and Y talk about", "how does it describe",
  // "what does it advise", "which one lays out".
  /\b(talk|talks|talked|talking|discuss|discusses|discussed|discussing|describe|describes|described|explain|explains|explained|regard|regards|address|addresses|advise|advises|advice|recommend|recommends|counsel|counsels|(?:lay|lays|laid|spell|spells|spelled) out)\b/g,
  // How a comparison is asked: what is compared is the rest. Comparing oneself with others ("I
  // can't stop comparing myself to old classmates") is what a life story is about, not how it asks.
  /\b(compare|compares|comparing|comparison|contrast|contrasts|contrasting|differ|differs|difference|differences|versus|vs|similar|similarity|similarities|both|agree|agrees|disagree|disagrees)\b(?!\s+(?:myself|me|ourselves|yourself|oneself|himself|herself|themselves|us)\b)/g,
];

const ZH_NUMERALS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** 八 -> 8, 十五 -> 15, 二十 -> 20, 八十一 -> 81, 一百零八 -> 108; digits pass through. */
export function parseNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  let total = 0;
  let current = 0;
  for (const ch of text) {
    if (ch in ZH_NUMERALS) current = ZH_NUMERALS[ch]!;
    else if (ch === '十') {
      total += (current || 1) * 10;
      current = 0;
    } else if (ch === '百') {
      total += (current || 1) * 100;
      current = 0;
    } else return undefined;
  }
  return total + current || undefined;
}

const NUM = '(\\d+|[零〇一二两三四五六七八九十百]+)';
/** Between a classic's title and its chapter: space and closing title marks (《道德经》第八十二章). */
const TITLE_END = '[\\s》〉」』"”\']*';

interface ReferenceHit {
  locators: string[];
  dangling: boolean;
}

interface HexagramName {
  name: string;
  pinyin: string;
  /** The name normalised, and with 卦 (OpenCC maps a lone 乾 to 干 but keeps 乾卦). */
  zh: string;
  zhGua: string;
  /** The pinyin name used as a name: "jie hexagram", "jie (", "hexagram 60 jie", "the jie". */
  pinyinPattern: RegExp;
  /**
   * An English name used with the word hexagram: "the Peace hexagram", "hexagram of Modesty",
   * "a hexagram about the family".
   */
  englishPattern?: RegExp;
  /** The English words of its judgment, lines and commentaries, to tell it from a namesake. */
  words: Set<string>;
}

/** The English names of a hexagram from its title: 否 Standstill (Obstruction) -> standstill, obstruction. */
function englishNames(title: string): string[] {
  const english = title.replace(/^\S+\s*/, '');
  return english
    .split(/[(),]/)
    .map((n) => n.trim().toLowerCase().replace(/^the\s+/, ''))
    .filter((n) => n.length >= 3);
}

/**
 * Two-character hexagram names that are everyday words (家人 family members, 大有 much, 无妄之灾):
 * they name the hexagram only in a question about the Yijing (我爸住院了……家人生病时 is no
 * question about Jiaren).
 */
const EVERYDAY_HEXAGRAM_NAMES: ReadonlySet<string> = new Set(['家人', '同人', '大有', '无妄', '大过', '小过', '大壮']);

/** Hexagram names by number, built once per set of packs (every question looks them up). */
const hexagramIndexes = new WeakMap<Knowledge, Map<number, HexagramName>>();

function hexagramIndex(k: Knowledge) {
  let byNumber = hexagramIndexes.get(k);
  if (byNumber) return byNumber;
  byNumber = new Map();
  for (const p of k.passages) {
    if (p.packId === 'yijing' && p.part === 'judgment' && p.hexagram) {
      const name = p.title?.split(' ')[0] ?? '';
      const pinyin = /\(([^)]+)\)/.exec(p.locator)?.[1] ?? '';
      const lower = pinyin.toLowerCase();
      const english = englishNames(p.title ?? '').map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
      byNumber.set(p.hexagram, {
        name,
        pinyin,
        zh: normalize(name),
        zhGua: normalize(`${name}卦`),
        pinyinPattern: new RegExp(`\\b${lower}\\b\\s*(?:hexagram|\\()|\\bhexagram\\s*(?:\\d+\\s*)?\\(?${lower}\\b|\\bthe ${lower}\\b|\\b(?:line|lines|judgment|image|tuan) (?:of|for|in) ${lower}\\b|\\b${lower}'s (?:lines?|judgment|image|tuan)\\b|\\b(?:yijing|i ching|book of changes)(?:'s)? ${lower}\\b`),
        ...(english ? { englishPattern: new RegExp(`\\b(?:${english})\\s+hexagram\\b|\\bhexagram\\s+(?:of\\s+|called\\s+|about\\s+|on\\s+|for\\s+)?(?:the\\s+)?(?:${english})\\b`) } : {}),
        words: new Set(k.passages.filter((x) => x.packId === 'yijing' && x.hexagram === p.hexagram).flatMap((x) => englishTerms(normalize(x.en ?? '')))),
      });
    }
  }
  hexagramIndexes.set(k, byNumber);
  return byNumber;
}

/** Quotation marks around a word, in the forms normalize leaves (full-width "..." becomes "..."). */
const QUOTE_MARKS: readonly [string, string][] = [['“', '”'], ['「', '」'], ['『', '』'], ['"', '"'], ['‘', '’'], ["'", "'"]];

/** The works' names, in the question's normalised form, and the locator each one opens with. */
const OPENINGS: [string, string][] = [
  ['daodejing|tao te ching|dao de jing|道德经|老子', 'Daodejing 1'],
  ['analects|lun ?yu|论语', 'Analects 1.1'],
  ['diamond sutra|金刚经', 'Diamond Sutra 1'],
  ['chuanxilu|传习录', 'Chuanxilu 1'],
  ['yijing|i ching|book of changes|易经|周易', 'Yijing 1 (Qian)'],
];

/**
 * A question on how a work opens (how does the Diamond Sutra begin, 论语的开头是哪一句) asks about
 * its first passage.
 */
const OPENING_PATTERNS: [RegExp, string][] = OPENINGS.map(([names, first]) => [
  new RegExp(
    `\\bhow (?:does|did) (?:the )?(?:${names}) (?:begin|start|open)\\b(?!\\s+(?:to|with|as)\\b)|\\b(?:the )?(?:very )?(?:beginning|opening|start|first)(?: (?:lines?|words|sentences?|passage|section|part|chapter))? of (?:the )?(?:${names})\\b|\\b(?:${names})(?:'s)? (?:opening|first (?:lines?|words|sentences?|passage|section))\\b|(?:${names})${TITLE_END}(?:的)?(?:开头|开篇|一开头|一开始|第一句|首章)(?:是|讲|说|写)?(?:的)?(?:什么|哪|啥|怎么)`,
    'u',
  ),
  first,
]);
// Chapters, books and sections named in Chinese; global, for matchAll (which copies the expression).
const DAODEJING_CHAPTER = new RegExp(`(?:道德经|老子)${TITLE_END}第?\\s*${NUM}\\s*章`, 'gu');
const DAODEJING_CHAPTER_LATER = new RegExp(`(?:道德经|老子)${TITLE_END}(?:(?!论语|金刚经|传习录|易经|周易)[^。？！?!“",，\\d一二三四五六七八九十]){1,12}?第\\s*${NUM}\\s*章`, 'gu');
const DAODEJING_LAST = new RegExp(`(?:道德经|老子)${TITLE_END}(?:的)?最后一章`, 'u');
const ANALECTS_BOOK = new RegExp(`论语${TITLE_END}第\\s*${NUM}\\s*篇`, 'gu');
const DIAMOND_SECTION = new RegExp(`(?:金刚经|diamond sutra)${TITLE_END}(?:(?:第|section|chapter)\\s*${NUM}|${NUM}\\s*分|\\s*(\\d+))`, 'gu');
const CHUANXILU_SECTION = new RegExp(`(?:传习录|chuanxilu)${TITLE_END}(?:第|section)?\\s*${NUM}\\s*(?:条|段|节)?`, 'gu');
const HEXAGRAM_ORDINAL = new RegExp(`第\\s*${NUM}\\s*卦`, 'gu');

/** Finds locator-style references in a normalised question. */
export function findReferences(n: string, k: Knowledge): ReferenceHit {
  const locators: string[] = [];
  let dangling = false;
  const want = (locator: string) => {
    if (k.passageByLocator.has(locator)) locators.push(locator);
    else dangling = true;
  };

  for (const [opening, first] of OPENING_PATTERNS) if (opening.test(n)) want(first);
  for (const m of n.matchAll(DAODEJING_CHAPTER)) want(`Daodejing ${parseNumber(m[1]!)}`);
  // The chapter may come a few words later (道德经最后一章（第八十一章）), so long as no other classic
  // is named in between; and the last chapter is the eighty-first.
  for (const m of n.matchAll(DAODEJING_CHAPTER_LATER)) want(`Daodejing ${parseNumber(m[1]!)}`);
  if (DAODEJING_LAST.test(n)) want('Daodejing 81');
  for (const m of n.matchAll(/(?:daodejing|tao te ching|dao de jing|lao[ -]?(?:zi|tzu))[^\d]{0,12}?(?:chapter|ch\.?)?\s*(\d+)\b/g)) want(`Daodejing ${m[1]}`);
  for (const m of n.matchAll(/chapter\s*(\d+)\s*(?:of\s*)?(?:the\s*)?(?:daodejing|tao te ching|lao[ -]?(?:zi|tzu))/g)) want(`Daodejing ${m[1]}`);

  for (const m of n.matchAll(/(?:论语|analects|lun ?yu)[^\d]{0,6}(\d+)\s*[.:：·]\s*(\d+)/g)) want(`Analects ${m[1]}.${m[2]}`);
  // A whole book of the Analects is no one passage; a book it does not have (book 25) is a reference to nothing.
  const book = (value: number | undefined) => {
    if (value !== undefined && !k.passageByLocator.has(`Analects ${value}.1`)) dangling = true;
  };
  for (const m of n.matchAll(/\bbook\s*(\d+)\s*of\s*(?:the\s*)?(?:analects|lun ?yu)|\b(?:analects|lun ?yu),?\s*book\s*(\d+)\b(?!\s*[.:：·]\s*\d)/g)) book(Number(m[1] ?? m[2]));
  for (const m of n.matchAll(ANALECTS_BOOK)) book(parseNumber(m[1]!));
  for (const m of n.matchAll(/\((\d{1,2})\.(\d{1,2})(?:,\s*(\d{1,2})\.(\d{1,2}))?\)/g)) {
    if (/论语|analects|lun ?yu|confucius|孔子/.test(n)) {
      want(`Analects ${m[1]}.${m[2]}`);
      if (m[3]) want(`Analects ${m[3]}.${m[4]}`);
    }
  }

  // A bare Han numeral after the title is no section (金刚经一边说…): it needs 第 or 分.
  for (const m of n.matchAll(DIAMOND_SECTION)) {
    const value = parseNumber((m[1] ?? m[2] ?? m[3])!);
    if (value) want(`Diamond Sutra ${value}`);
  }
  for (const m of n.matchAll(/section\s*(\d+)\s*of\s*(?:the\s*)?diamond sutra/g)) want(`Diamond Sutra ${m[1]}`);

  for (const m of n.matchAll(CHUANXILU_SECTION)) {
    const value = parseNumber(m[1]!);
    if (value) want(`Chuanxilu ${value}`);
  }

  const hexagrams = hexagramIndex(k);
  const namesHexagram = n.includes('hexagram');
  const numbers = new Set<number>();
  // In a question about the Yijing, a pinyin name in brackets names its hexagram: Constancy (Heng).
  const aboutYijing = PACK_NAMES.some(([re, id]) => id === 'yijing' && re.test(n));
  for (const m of n.matchAll(/hexagram\s*(?:no\.?|number|#)?\s*(\d+)/g)) numbers.add(Number(m[1]));
  for (const m of n.matchAll(HEXAGRAM_ORDINAL)) numbers.add(parseNumber(m[1]!) ?? 0);
  const byPinyinOnly = new Map<string, number[]>();
  for (const [number, h] of hexagrams) {
    const pinyin = h.pinyin.toLowerCase();
    const named =
      (Array.from(h.zh).length >= 2 && n.includes(h.zh) && (aboutYijing || !EVERYDAY_HEXAGRAM_NAMES.has(h.zh))) ||
      n.includes(h.zhGua) ||
      Boolean(namesHexagram && h.englishPattern?.test(n)) ||
      // And a hexagram's name in quotation marks is the hexagram: 易经对人处在“困”的时候有什么说法.
      (aboutYijing && QUOTE_MARKS.some(([open, close]) => n.includes(`${open}${h.zh}${close}`)));
    if (named) numbers.add(number);
    // A pinyin word glossed in English in brackets after it (the word jing (quiet/still)) is that
    // word, not a hexagram, in a question that names neither the Yijing nor a hexagram.
    else if (!aboutYijing && !namesHexagram && pinyin && n.includes(`${pinyin} (`) && /^[a-z]/.test(n.slice(n.indexOf(`${pinyin} (`) + pinyin.length + 2))) continue;
    // Every form of the pinyin pattern has the pinyin itself: the substring test saves 64 regular expressions a question.
    else if ((pinyin && n.includes(pinyin) && h.pinyinPattern.test(n)) || (aboutYijing && pinyin && n.includes(`(${pinyin})`))) {
      numbers.add(number);
      byPinyinOnly.set(pinyin, [...(byPinyinOnly.get(pinyin) ?? []), number]);
    }
  }
  // Hexagrams that share a name in pinyin (Qian is 乾 and 谦, Kun 坤 and 困), named by it alone:
  // the one whose texts share more of the question's words is meant (the dragon of Qian 1),
  // else the first in the received order.
  const asked = new Set(englishTerms(n));
  for (const namesakes of byPinyinOnly.values()) {
    if (namesakes.length < 2 || namesakes.some((x) => !numbers.has(x))) continue;
    const shared = (x: number) => [...asked].filter((w) => hexagrams.get(x)!.words.has(w)).length;
    const meant = namesakes.reduce((a, b) => (shared(b) > shared(a) ? b : a));
    for (const x of namesakes) if (x !== meant) numbers.delete(x);
  }
  for (const number of numbers) {
    const h = hexagrams.get(number);
    if (!h) {
      dangling = true;
      continue;
    }
    const base = `Yijing ${number} (${locatorName(h.pinyin)})`;
    const line = /line\s*(\d)|第\s*([一二三四五六1-6])\s*爻|([初二三四五上])\s*爻|(初|上)[九六]|[九六]([二三四五])|\b(first|bottom|second|third|fourth|fifth|sixth|top|topmost|uppermost) line\b|\bline (one|two|three|four|five|six)\b/.exec(n);
    const LINE_NUMBER: Record<string, number> = { 初: 1, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 上: 6 };
    const LINE_WORD: Record<string, number> = { first: 1, bottom: 1, one: 1, second: 2, two: 2, third: 3, three: 3, fourth: 4, four: 4, fifth: 5, five: 5, sixth: 6, six: 6, top: 6, topmost: 6, uppermost: 6 };
    const lineNumber = line ? Number(line[1]) || LINE_NUMBER[line[2] ?? line[3] ?? line[4] ?? line[5] ?? ''] || Number(line[2]) || LINE_WORD[line[6] ?? line[7] ?? ''] : undefined;
    const image = /image|大象|象传|象曰/.test(n);
    const tuan = /tuan|彖/.test(n);
    want(base);
    if (image) want(`${base} Image`);
    if (tuan) want(`${base} Tuan`);
    if (lineNumber) want(`${base} line ${lineNumber}`);
  }
  return { locators: [...new Set(locators)], dangling: dangling && locators.length === 0 };
}

/**
 * A line given in pinyin in brackets after its English ('superior virtue ...' (shang de bu de)):
 * the romanisation restates the quote, and no passage carries pinyin; it is not content to match.
 * Three syllables or more, so that a bracketed name (Heng) or concept (wu wei) stays.
 */
export function romanisationRemoved(n: string): string {
  return n.replace(/\(([a-z]+(?:\s+[a-z]+){2,})\)/g, (whole, inner: string) => (inner.split(/\s+/).every((w) => PINYIN.test(w)) ? ' ' : whole));
}

const COMPARATIVE = /\b(compare|comparison|differ|difference|differences|versus|vs\.?|same as|similar|both)\b|比较|区别|异同|不同|相同|一样|和.{1,12}(有什么|的)?(区别|不同|异同)|一回事|一码事|相通|共通|共同(?:点|之处)|(?:同)?一个意思|意思一样|像不像|是否相似|相似吗|类似吗|怎么看待.{0,4}(和|与)/;
/**
 * A question about one's own life: the first person, or, since Chinese often leaves the subject
 * out, a report of one's recent days or years and strain (最近工作压力大……晚上睡不着，怎么办;
 * 这几年做生意赚了点钱，可是反而天天焦虑; 在准备考研，书背得头昏脑涨; 上班太累了) or of how
 * one's days go (每天下班就刷视频刷到凌晨), a clause that opens on what the asker can't stand or
 * wants (受够了职场，想辞职) or on what just happened to them (刚被提拔当主管, 刚开始创业), an entrance
 * exam failed again (考研第二次又没上岸), a regret that
 * will not leave (到现在还天天后悔), an age and what befell the asker at it (35岁被裁员,
 * 三十好几了), how long one has been married or at work (结婚十年了, 创业第三年), what came after a
 * divorce or a layoff (离婚以后一个人搬到外地), living alone (一个人住老房子), one's child's school year
 * opening the story (儿子上初中，…), a year at school or
 * college given as who one is (大二学生，…), money lost last year (去年炒股亏了快二十万), a quarrel with one's
 * husband or wife, having been cheated or let go before (之前被合伙人骗过), being slighted by others
 * (处处被人轻贱), or a choice to be made between people
 * (提谁更好); in English, "our company" or "our son", or a diary line with its subject left out
 * (failed the exam twice now; seriously thinking of giving up). The first person inside a
 * quotation ('what should I do?') is the quoted speaker's, not the asker's; 自己 after 说 or
 * 评价 (孔子怎么说自己) is the person spoken of.
 */
/** The asker noticing a word in their reading ("I see the word jing come up a lot"): no story of their life. */
const WORD_NOTICED = /\bi(?:'ve| have)? (?:see|saw|seen|notice|noticed|keep seeing|keep noticing) the (?:word|phrase|term|character|expression)\b[^.?!]*/g;
const SITUATIONAL =
  /\b(i|i'm|im|my|me|i've|ive|we)\b|我|我们|(?<!说|评价|形容|称|谈|讲|阳明|孔子|老子|夫子|佛陀|先生)自己|^(?:最近|这段时间|这阵子|这几天|这几年|这两年|这些年|每天下班|每天一|天天|每晚|整天|下班回家|下班后|(?:正)?在(?:准备|备考|复习|考研|找工作|带娃|坐月子)|(?:考研|考公|考编|复读|备考)(?:二战|三战|中|期间|的时候)|(?:考研|考公|考编|高考|法考|司考)[^，。？！]{0,6}(?:没上岸|没考上|没上线|落榜|没过)|(?:今年|已经|都)?(?:[二三四五六七八九]十|\d{2})(?:多|出头)?岁?了[,，])|拖了(?:[一二三四五六七八九十两几半]|\d+)(?:个)?(?:天|周|星期|月|年)|(?:^|[,，。;；])(?:感觉|觉得)(?:人生|整个人|生活|日子)|压力(?:很|太|好|特别|挺)?大|睡不着|失眠|(?:^|[,;，。；])(?:实在|真的|真是|真|已经)?(?:很|好|特别|非常)?(?:受够了|不想再|想辞职|撑不下去|快崩溃)|^(?:上班|工作|加班|带娃)(?:太|好|真|很|实在)?(?:累|烦|辛苦)|(?:天天|一直|还在|总是|越想越)(?:后悔|懊悔|自责)|(?:提拔|提|选|用|帮)谁(?:更好|好|合适|比较好)|(?:^|[,;，。；])(?:今年)?(?:[0-9]{2}|[二三四五六七八九]十[一二三四五六七八九]?)岁(?:了|那年|的时候|时)?[,，]?(?:还|又|被|就|才|突然|却|刚)|(?:^|[,;，。；])(?:[二三四五六七八九]十(?:好几|多岁|几岁))了?|被人(?:冷嘲热讽|看不起|瞧不起|欺负|排挤|轻视|轻贱|嘲笑|针对|孤立)|(?:和|跟)(?:前任|前男友|前女友|男朋友|女朋友|男友|女友|对象|老公|老婆|丈夫|妻子|前夫|前妻)[^，。？！]{0,4}(?:分手|分开|离婚)|(?:^|[,;，。；])(?:结婚|恋爱|在一起|工作|上班|毕业|退休|离婚|分手|创业)了?(?:快|都|已经)?第?(?:[0-9]+|[一二三四五六七八九十两几半]+)(?:年|个月)|(?:^|[,;，。；])(?:离婚|分手|退休|失业|下岗|被裁|丧偶|毕业)(?:以后|之后)|^一个人(?:住|搬|在外地|在家|生活|过)|^(?:儿子|女儿|孩子)(?:今年)?(?:上|读|刚上|在读)(?:初中|高中|小学|大学|幼儿园|初[一二三]|高[一二三]|[一二三四五六]年级)|^(?:大[一二三四]|研[一二三]|高[一二三]|初[一二三]|博[一二三四五])(?:学生|学生党|在读)?[,，]|^(?:去年|前年|今年|上个月|上半年|下半年|前几年|前阵子|前段时间)(?:炒股|炒币|投资|买基金|理财|做生意|创业|赌博)?(?:亏|赔|输)(?:了|掉|光)|(?:和|跟)(?:老公|老婆)(?:之间|[^，。？！]{0,12}(?:吵|闹|冷战|矛盾))|^(?:之前|以前|去年|前年|上次|今年|做生意|创业|炒股)?被[^，。]{0,8}(?:骗|坑|背叛|出卖|辞退|裁|甩)|\bour (?:company|startup|team|business|family|son|daughter|kids?|children|marriage|shop|firm|department)\b|(?:^|[,;，。；])(?:刚|刚刚|才|最近)(?:被|又)?[\u4e00-\u9fff]{0,2}?(?:提拔|升职|降职|裁员|辞退|开除|调岗|失业|离婚|分手|毕业|退休|创业|开店|入职)|(?:^|[.!?;]\s*)(?:just |recently |finally )?(?:failed|flunked|lost my|got (?:fired|dumped|laid off|rejected)|been feeling|feeling so|seriously thinking (?:of|about)|thinking of quitting|broke up|can'?t (?:sleep|stop|focus|cope))\b|^(?:刚|刚刚)(?:升了|升职|被|当上|换了|结了?婚|生了|毕业|退休|离了?婚|分手|搬|入职|上任|创业)|这种心态/;

export function detectIntent(query: string, k: Knowledge, concepts: Concept[]): Intent {
  const n = normalize(query);
  const lang = languageOf(query);
  const packsNamed = PACK_NAMES.filter(([re]) => re.test(n)).map(([, id]) => id);
  const { locators, dangling } = findReferences(n, k);
  const references = locators.map((l) => k.passageByLocator.get(l)!);
  let content = romanisationRemoved(n);
  for (const re of FRAME_WORDS) content = content.replace(re, ' ');
  // Another tradition judged by a classic's author (how Wang Yangming criticizes Buddhism) is what
  // the question asks about, not the name of a classic: its followers are found by name.
  const judged = JUDGED_TRADITION.exec(n)?.[1];
  if (judged && packsNamed.some((p) => p !== (/^budd/.test(judged) ? 'diamond-sutra' : 'daodejing'))) content += /^budd/.test(judged) ? ' buddhists' : ' daoists';
  const traditionsNamed = new Set<Tradition>();
  for (const p of packsNamed) traditionsNamed.add(p === 'daodejing' ? 'daoist' : p === 'diamond-sutra' ? 'buddhist' : p === 'chuanxilu' ? 'yangming' : 'confucian');
  const kind: IntentKind =
    COMPARATIVE.test(n) && (traditionsNamed.size >= 2 || concepts.length >= 2)
      ? 'comparative'
      : references.length
        ? 'textual'
        : SITUATIONAL.test(withoutQuotations(n).replace(WORD_NOTICED, ' '))
          ? 'situational'
          : concepts.length
            ? 'conceptual'
            : 'textual';
  return { kind, lang, packsNamed, references, danglingReference: dangling, concepts, content: content.replace(/\s+/g, ' ').trim(), question: n };
}
