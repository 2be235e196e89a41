import { LRUCache } from 'lru-cache';
import * as OpenCC from 'opencc-js';
import { stemmer } from 'stemmer';
import { eng as ENGLISH_STOPWORDS } from 'stopword';

const toSimplified = OpenCC.Converter({ from: 't', to: 'cn' });
export const STOP = new Set([
  ...ENGLISH_STOPWORDS,
  ...'say says said tell tells mean means does did will would shall should can could may might must like just also get gets got make makes made thing things really much many even ever still yet let lets please want wants know knows think thinks anything something everything someone anyone one really'.split(' '),
  // The same framing verbs inflected ("the saying goes", "telling", "once said"), which the
  // stemmer would otherwise keep as content (sai, tell, onc).
  ...'saying telling told meaning meant making getting wanting letting once somebody somewhere whatever whoever anybody when whenever where wherever'.split(' '),
  // A conjunction that only frames what is asked ("say whether monks must ...").
  'whether',
]);

/**
 * Irregular English forms the stemmer leaves apart from their base (died -> di, dying -> dy,
 * taught, spoke, children): a question's "dying" and a translation's "die" are one word.
 */
const IRREGULAR: Record<string, string> = {
  died: 'die', dies: 'die', dying: 'die', lying: 'lie', lied: 'lie', lies: 'lie',
  taught: 'teach', spoke: 'speak', spoken: 'speak', knew: 'know', known: 'know',
  gave: 'give', given: 'give', went: 'go', gone: 'go', began: 'begin', begun: 'begin',
  fought: 'fight', sought: 'seek', brought: 'bring', caught: 'catch', ran: 'run',
  wrote: 'write', written: 'write', felt: 'feel', heard: 'hear', ate: 'eat', eaten: 'eat',
  fell: 'fall', fallen: 'fall', grew: 'grow', grown: 'grow', held: 'hold', kept: 'keep',
  met: 'meet', paid: 'pay', rose: 'rise', risen: 'rise', sat: 'sit', slept: 'sleep',
  stood: 'stand', took: 'take', taken: 'take', understood: 'understand', won: 'win',
  wept: 'weep', chose: 'choose', chosen: 'choose', forgot: 'forget', forgotten: 'forget',
  hid: 'hide', hidden: 'hide', became: 'become', overcame: 'overcome', forgave: 'forgive',
  forgiven: 'forgive', dealt: 'deal', virtuous: 'virtue', children: 'child', men: 'man', women: 'woman',
  feet: 'foot', teeth: 'tooth', wives: 'wife', lives: 'life', selves: 'self', thieves: 'thief',
  // Superlatives and comparatives the stemmer leaves whole ("the wisest and the stupidest"),
  // which would otherwise be words no passage has.
  wisest: 'wise', wiser: 'wise', stupidest: 'stupid', greatest: 'great', greater: 'great', highest: 'high',
  higher: 'high', lowest: 'low', lower: 'low', noblest: 'noble', nobler: 'noble', humblest: 'humble',
  strongest: 'strong', stronger: 'strong', weakest: 'weak', weaker: 'weak', hardest: 'hard', harder: 'hard',
  easiest: 'easy', easier: 'easy', deepest: 'deep', deeper: 'deep', oldest: 'old', older: 'old',
  youngest: 'young', younger: 'young', truest: 'true', purest: 'pure', kindest: 'kind', bravest: 'brave',
  richest: 'rich', richer: 'rich', poorest: 'poor', poorer: 'poor', smallest: 'small', biggest: 'big',
  simplest: 'simple', finest: 'fine', worst: 'bad', worse: 'bad',
};

/**
 * Contractions as their words (isn't -> is not, he'd -> he): otherwise "isn't" leaves the
 * non-word "isn" and "don't" the name-like "don". Curly apostrophes count as straight ones.
 */
/**
 * Contractions typed without the apostrophe ("i cant sleep", "isnt it", "im"), read as typed with
 * it: otherwise they weigh as words no passage has.
 */
const BARE_CONTRACTION = /\b(?:(ca|wo|do|does|did|is|are|was|were|would|could|should|have|has|had)nt|(i)m|(i|you|we|they)(?:ve|re)|(that|what|he|she)s)\b/g;
const BARE_BASE: Record<string, string> = { ca: 'can', wo: 'will' };

function expandContractions(text: string): string {
  text = text.replace(BARE_CONTRACTION, (whole, not?: string, i?: string, person?: string, s?: string) =>
    not ? `${BARE_BASE[not] ?? not} not` : (i ?? person ?? s ?? whole),
  );
  if (!text.includes("'") && !text.includes('\u2019')) return text;
  return text
    .replace(/\u2019/g, "'")
    .replace(/\bcan't\b/g, 'can not')
    .replace(/\bwon't\b/g, 'will not')
    .replace(/\bshan't\b/g, 'shall not')
    .replace(/n't\b/g, ' not')
    .replace(/'(?:s|d|ll|re|ve|m)\b/g, '');
}

/**
 * One request normalises the same question a dozen times (concepts, intent, Gate, retrieval,
 * evidence), and the character conversion is the costly part: recent short texts are kept.
 */
const MEMO_MAX_LENGTH = 2_000;
const recent = new LRUCache<string, string>({ max: 4_096 });

const CJK = /\p{Script=Han}/u;
const CJK_RUN = /\p{Script=Han}+/gu;
const WORD = /[a-z0-9]+/g;

/**
 * The text with what it quotes blanked: a quoted line ("give me a few more years" in Analects
 * 7.17; 'what should I do?') is the text's words, not the asker's request or story. Single
 * quotes count only when they stand apart from letters, so an apostrophe (don't, there's)
 * neither opens nor closes one.
 */
const QUOTATION = /“[^”]{1,160}”|「[^」]{1,160}」|『[^』]{1,160}』|"[^"\n]{1,160}"|(?<![\p{L}\p{N}])['‘](?:[^'‘’\n]|(?<=\p{L})['’](?=\p{L})){2,160}?['’](?![\p{L}\p{N}])/gu;
export const withoutQuotations = (text: string) => text.replace(QUOTATION, ' ');

/**
 * One normal form for index and query: NFKC (folds full-width letters, digits and punctuation),
 * traditional characters to simplified (無為 and 无为 meet), lower case, diacritics removed from
 * Latin letters (pinyin tones, Röntgen).
 */
export function normalize(text: string): string {
  const short = text.length <= MEMO_MAX_LENGTH;
  const known = short ? recent.get(text) : undefined;
  if (known !== undefined) return known;
  const simplified = toSimplified(text.normalize('NFKC'));
  const out = simplified
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase();
  if (short) recent.set(text, out);
  return out;
}

/** A word or two set in quotation marks, read with its neighbours: “说”和“做” is 说和做. */
export function unquoteShort(normalized: string): string {
  return normalized.replace(/[“"「『]\s*(\p{Script=Han}{1,2})\s*[”"」』]/gu, '$1');
}

/** A syllable of romanised Chinese (hou de zai wu, shang de bu de), without tones. */
const SYLLABLE = '(?:[zcs]h|[bpmfdtnlgkhjqxrzcsyw])?(?:iang|iong|uang|ang|eng|ing|ong|uai|iao|ian|uan|ai|ei|ao|ou|an|en|in|un|ia|ie|iu|ua|uo|ui|ue|er|a|o|e|i|u|v)';
/** One toneless pinyin syllable (dao, xue, zhi). */
export const PINYIN = new RegExp(`^${SYLLABLE}$`);
/** A word of one to four toneless pinyin syllables written together (junzi, wuwei, zhiliangzhi). */
export const PINYIN_WORD = new RegExp(`^(?:${SYLLABLE}){1,4}$`);

/**
 * Toneless pinyin written together (kanglongyouhui) cut into `count` syllables (kang long you hui),
 * one per character of the word it spells; undefined when it cannot be cut that way.
 */
export function pinyinSyllables(plain: string, count: number): string[] | undefined {
  if (count < 1 || count > 8 || !/^[a-z]+$/.test(plain)) return undefined;
  const m = new RegExp(`^${`(${SYLLABLE})`.repeat(count)}$`).exec(plain);
  return m ? m.slice(1) : undefined;
}

export const isCjk = (text: string) => CJK.test(text);

/** Character unigrams and bigrams of every run of Han characters (see PITFALLS: no word segmentation). */
export function cjkGrams(normalized: string): string[] {
  const grams: string[] = [];
  for (const run of normalized.match(CJK_RUN) ?? []) {
    const chars = Array.from(run);
    for (let i = 0; i < chars.length; i++) {
      grams.push(chars[i]!);
      if (i + 1 < chars.length) grams.push(chars[i]! + chars[i + 1]!);
    }
  }
  return grams;
}

/**
 * Names of modern (or later) things made of everyday English words ("social media", "stock market"): each
 * is read as one word, which no classic has. Read apart, "social" and "market" would let a
 * passage on social duty or on the marketplace answer a question about something it never knew.
 * A final word may take a plural s.
 */
export const MODERN_COMPOUNDS: readonly string[] = [
  'social media', 'social network', 'social networking', 'news feed', 'video game', 'computer game', 'online game',
  'mobile phone', 'cell phone', 'smart phone', 'text message', 'dating app', 'web site', 'search engine', 'screen time',
  'artificial intelligence', 'machine learning', 'neural network', 'self driving', 'electric car', 'space station',
  'stock market', 'stock price', 'share price', 'credit card', 'debit card', 'interest rate', 'exchange rate', 'real estate',
  'student loan', 'tax return', 'health insurance', 'life insurance', 'fast food', 'junk food',
  'climate change', 'global warming', 'nuclear power', 'nuclear weapon', 'solar panel', 'black hole',
  // Later history, which the classics could not know: the First Emperor burning the books.
  'first emperor', 'qin shi huang', 'qin shihuang', 'book burning', 'burning of the books', 'burning the books',
];
const COMPOUND = new RegExp(
  `\\b(?:${MODERN_COMPOUNDS.map((c) => c.split(' ').join('[\\s-]+')).join('|')})s?\\b`,
  'g',
);

const ONES = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/**
 * A two-digit number as the words a translation writes it in (15 -> fifteen, 32 -> thirty two):
 * "at 15 he set his heart on learning" and "at fifteen I set my heart on learning" meet. One
 * digit stays as it was (too short to be a term; "2.4" is a locator, not two and four).
 */
function numberWords(word: string): string {
  if (!/^[1-9]\d$/.test(word)) return word;
  const n = Number(word);
  if (n < 20) return TEENS[n - 10]!;
  return `${TENS[Math.floor(n / 10)]} ${ONES[n % 10]}`.trim();
}

/** English content words, stemmed, without stopwords; a modern compound is one word (socialmedia). */
export function englishTerms(normalized: string): string[] {
  const out: string[] = [];
  const joined = expandContractions(normalized)
    .replace(COMPOUND, (m) => m.replace(/[\s-]+/g, ''))
    .replace(/\b\d+\b/g, numberWords);
  for (const word of joined.match(WORD) ?? []) {
    let term = stems.get(word);
    if (term === undefined) {
      const base = IRREGULAR[word];
      term = STOP.has(word) || word.length < 2 || (base && STOP.has(base)) ? '' : stemmer(base ?? word);
      // Every question and passage stems its words again; the words are few, the stemming is not cheap.
      if (stems.size >= STEMS_MAX) stems.clear();
      stems.set(word, term);
    }
    if (term) out.push(term);
  }
  return out;
}

/** Each English word's term ('' for a stopword); cleared when it reaches STEMS_MAX words. */
const stems = new Map<string, string>();
const STEMS_MAX = 50_000;

/**
 * English words that stand for anyone or anything (a person, people) or say how an answer is
 * wanted (in detail, the different ...): terms like any other, but two of a question's words a
 * passage shares are not two things it speaks to when one of them is one of these.
 */
export const GENERIC_ENGLISH: ReadonlySet<string> = new Set(
  'person persons people everyone everybody different various detail details detailed'.split(' ').map((w) => stemmer(w)),
);

/** All index terms of a text: Han n-grams and stemmed English words. */
export function terms(text: string): string[] {
  const n = normalize(text);
  return [...cjkGrams(n), ...englishTerms(n)];
}

/** Han characters too common to carry a question's meaning on their own (modern and classical). */
const ZH_FUNCTION = new Set(Array.from('的了是吗呢么吧啊呀和与及或在对把被给向从以于也都就还又很更最不没有这那个些种样么什怎如何为哪谁几说讲谈讲请问一下我你他她它们要想会能可该应之其而者乎矣焉哉里越挺总但'));
/** Particles: a bigram with one of them is never a word (的人, 白的, 么区, 之死). */
const PARTICLES = new Set(Array.from('的吗呢吧啊呀么之'));
/**
 * Modern adverbs and connectives that shape a sentence but say nothing about its topic (真正,
 * 往往, 突然, 最近). Their characters weigh nothing, and a bigram reaching into one (正明 in
 * 真正明白) is a seam, not a word.
 */
const MODERN_FUNCTION_WORDS = new Set(
  (
    '真正 往往 总是 已经 因为 所以 但是 可是 如果 虽然 还是 就是 只是 其实 到底 究竟 一直 特别 有点 一点 感觉 觉得 最近 突然 当年 当时 比较 时候 一下 一些 这样 那样 这种 那种 然后 而且 并且 或者 甚至 不过 一定 好像 事情 东西 ' +
    // Measure phrases: 一笔钱 is a question about 钱.
    '一笔 一次 一件 一份 一场 一段 这件 那件 每次 每回 ' +
    // How a question reports what it has heard (老是, 专门讲过这事): nothing it asks about.
    '老是 专门 这事 讲过 说过 提过 谈过 ' +
    // What a question points its words at (针对急于求成的提醒, 有关的说法): nothing it asks about.
    '针对 有关 相关'
  ).split(' '),
);

export const isFunctionCharacter = (c: string) => ZH_FUNCTION.has(c);

/**
 * Everyday words that say how a question is put rather than what it is about (希望 hope, 大家
 * everyone, 心态 frame of mind, 忍不住 can't help it). Where no passage has one, it is not a
 * topic the classics lack (as 手机 or 股市 are): it weighs nothing, rather than count as a share
 * of the question no classic can carry.
 */
export const EVERYDAY_WORDS: ReadonlySet<string> = new Set(
  ('希望 大家 别人 人家 一切 所有 全部 一样 需要 应该 可能 能够 必须 马上 立刻 从来 永远 终于 确实 真的 一般 普通 ' +
    '心态 心情 情况 状态 问题 办法 方法 关系 影响 作用 时候 地方 方面 部分 开始 结束 继续 完成 出现 发生 变成 成为 ' +
    '比如 例如 总之 而是 不是 就要 要是 有人 没人 每个 每天 整天 一天 以为 记得 发现 告诉 看见 看到 听到 听说 ' +
    '现在 后来 以前 以后 之前 之后 这句 那句 这段 一句 几句 说法 看法 想法 做法 态度 观点 ' +
    '忍不住 受不了 停不下 放不下 想不通 睡不着 舍不得 来不及 做不到 怎么办 一点点').split(' '),
);

/**
 * Common words of modern Chinese, known so that a modern question is cut at their edges: in
 * 聪明的人喜欢水 the bigram 欢水 is a seam, so 水 stands as a word of its own (知者乐水); in
 * 年轻人值得敬畏 neither 人值 nor 得敬 is taken for a word. They stay terms themselves.
 */
export const MODERN_WORDS: readonly string[] = (
  '喜欢 喜爱 和谐 及时 与其 自我 我执 我相 人我 忘我 东西 现在 后来 以前 以后 之前 之后 值得 年轻 老人 孩子 父母 朋友 同事 领导 老板 公司 单位 部门 经理 下属 员工 ' +
  '上班 加班 辞职 跳槽 升职 提拔 工资 收入 房子 结婚 离婚 恋爱 分手 家庭 家人 亲人 兄弟 姐妹 学校 老师 学生 考试 成绩 作业 ' +
  '知识 能力 水平 问题 办法 方法 关系 影响 作用 情况 状态 心情 情绪 压力 烦恼 痛苦 希望 梦想 目标 计划 未来 过去 将来 机会 ' +
  '坚持 放弃 错误 社会 世界 人生 生活 身体 健康 疾病 医院 医生 手机 电脑 网络 游戏 视频 电影 音乐 小说 打仗 战争 军队 武器 ' +
  '吉利 别人 大家 人家 一切 所有 全部 一样 不同 相同 区别 特点 重要 主要 需要 应该 可能 能够 必须 马上 立刻 从来 永远 终于 ' +
  '确实 真的 一般 普通 简单 复杂 困难 麻烦 厉害 愚蠢 善良 诚实 勇敢 谦虚 骄傲 自私 懒惰 勤奋 认真 讨厌 看见 看到 听到 听说 ' +
  '以为 记得 忘记 发现 告诉 回答 提问 讨论 解释 描述 评价 批评 表扬 鼓励 帮助 支持 同意 拒绝 接受 面对 处理 解决 避免 控制 ' +
  '改变 发展 提高 增加 减少 进步 不服 服气 带领 团队 合作 竞争 比赛 别的 其他 以及 关于 对于 通过 根据 按照 为了 除了 ' +
  '怎样 为何 哪个 哪一 这句 那句 这段 一句 几句 说法 看法 想法 做法 态度 观点 思想 道理 意思 时候 地方 方面 部分 ' +
  '应当 不能 不会 不要 不用 可以 还有 只有 已经 正在 曾经 刚刚 开始 结束 继续 完成 出现 发生 变成 成为 属于 包括 ' +
  '比如 例如 总之 而是 不是 就要 要是 有人 没人 每个 每天 整天 一天 一生 一辈子 年纪 岁数 小时 今天 昨天 明天 ' +
  '自己 多少 每年 每月 每周 ' +
  // Everyday words around a word the classics share (乱 in 心里乱, 格 in 竹子格了七天).
  '结果 心里 家里 在家 回家 出门 上网 网上 手上 身上 脑子 住院 看病 生病 病人 毛病 上学 读书 ' +
  '本来 原来 出来 起来 回来 下来 往来 看来 以来 来源 来自'
)
  .split(' ')
  .concat([...EVERYDAY_WORDS]);

/** Two function characters (什么), or a particle with anything (的人), make no word. */
const noWord = (a: string, b: string) => (ZH_FUNCTION.has(a) && ZH_FUNCTION.has(b)) || PARTICLES.has(a) || PARTICLES.has(b);
/**
 * Conjunctions ("and", "or") and personal pronouns: a bigram with one (知和, 和行 in 知和行; 帮我,
 * 我看 in 帮我看待) is a seam, unless it is a known word (和谐, 及时, 无我, 我相).
 */
const CONJUNCTIONS = new Set(Array.from('和与及或跟我你您他她它'));
/**
 * Modern grammatical characters that bind to a neighbour only inside a known word: the aspect
 * particle 了 (格了, 乱了; but 了解, 为了), 把 (把杂念), adverbs (就乱, 都想, 越想越乱, 挺平和, 总忍) and
 * the directional 来 (都来夸我; but 未来, 如来).
 * Elsewhere a bigram with one is a seam, and the character beside it stands alone (乱, 格).
 */
const BOUND = new Set(Array.from('了把就都也又很越挺总来'));

/** A question's Han terms with the positions of the characters each spans, and its English terms. */
export interface AnalysedQuestion {
  chars: string[];
  spans: { term: string; at: number[] }[];
  english: string[];
  /** The positions of each everyday word the question has (see EVERYDAY_WORDS). */
  everyday: number[][];
}

/**
 * A question's content terms: Han bigrams that may be words (not 什么, not 的人), a Han character
 * that stands in no such bigram (王阳明怎么看待悔 -> 悔), and stemmed English content words.
 * Unlike terms(), a Han character does not count on its own when it is part of a bigram: 君 in
 * 君子 is not a question about rulers. Given a lexicon of known words, a bigram across the edge
 * of one is not a term: 颜回死 yields 颜回 and 死, not 回死.
 */
export function analyseQuestion(text: string, lexicon?: Lexicon): AnalysedQuestion {
  const n = normalize(text);
  const chars: string[] = [];
  const spans: AnalysedQuestion['spans'] = [];
  const everyday: number[][] = [];
  for (const run of n.match(CJK_RUN) ?? []) {
    const base = chars.length;
    const cs = Array.from(run);
    chars.push(...cs);
    // Characters of a modern function word are spoken for: no term holds them.
    const spoken = cs.map(() => false);
    for (let i = 0; i + 1 < cs.length; i++) if (MODERN_FUNCTION_WORDS.has(cs[i]! + cs[i + 1]!)) spoken[i] = spoken[i + 1] = true;
    const word = lexicon ? knownWords(cs, lexicon) : cs.map(() => -1);
    const inWord = cs.map(() => false);
    for (let i = 0; i + 1 < cs.length; i++) {
      if (spoken[i] || spoken[i + 1] || noWord(cs[i]!, cs[i + 1]!)) continue;
      // A bigram reaching across the edge of a known word is a seam (回死 in 颜回死).
      if (word[i] !== word[i + 1]) continue;
      if ((CONJUNCTIONS.has(cs[i]!) || CONJUNCTIONS.has(cs[i + 1]!) || BOUND.has(cs[i]!) || BOUND.has(cs[i + 1]!)) && word[i] === -1) continue;
      spans.push({ term: cs[i]! + cs[i + 1]!, at: [base + i, base + i + 1] });
      inWord[i] = inWord[i + 1] = true;
    }
    cs.forEach((c, i) => {
      if (!inWord[i] && !spoken[i] && !ZH_FUNCTION.has(c)) spans.push({ term: c, at: [base + i] });
    });
    for (let i = 0; i < cs.length; i++) {
      if (word[i] !== i) continue;
      let end = i;
      while (end + 1 < cs.length && word[end + 1] === i) end++;
      if (EVERYDAY_WORDS.has(cs.slice(i, end + 1).join(''))) everyday.push(Array.from({ length: end - i + 1 }, (_, j) => base + i + j));
    }
  }
  return { chars, spans, english: englishTerms(n), everyday };
}

/** Words of two or more Han characters that a question may be cut at (synonyms, concept names). */
export interface Lexicon {
  words: Set<string>;
  longest: number;
  /** The first two characters of every word: where no word starts, none is looked for. */
  starts?: Set<string>;
}

/**
 * Which known word each character belongs to (its start index), -1 for none: longest match
 * from the left. There is no word segmentation; these known words are the only cuts made.
 */
function knownWords(cs: string[], lexicon: Lexicon): number[] {
  const word = cs.map(() => -1);
  for (let i = 0; i < cs.length - 1; ) {
    let length = 0;
    if (lexicon.starts && !lexicon.starts.has(cs[i]! + cs[i + 1]!)) {
      i++;
      continue;
    }
    for (let l = Math.min(lexicon.longest, cs.length - i); l >= 2 && !length; l--) if (lexicon.words.has(cs.slice(i, i + l).join(''))) length = l;
    if (!length) {
      i++;
      continue;
    }
    for (let j = i; j < i + length; j++) word[j] = i;
    i += length;
  }
  return word;
}

/** The distinct content terms of a question (see analyseQuestion). */
export function questionTerms(text: string, lexicon?: Lexicon): string[] {
  const { spans, english } = analyseQuestion(text, lexicon);
  return [...new Set([...spans.map((s) => s.term), ...english])];
}

/** The language of a question: zh when it has Han characters, en otherwise. */
export const languageOf = (text: string): 'zh' | 'en' => (isCjk(text) ? 'zh' : 'en');
