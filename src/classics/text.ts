import { LRUCache } from 'lru-cache';
import * as OpenCC from 'opencc-js';
import { stemmer } from 'stemmer';
import { eng as ENGLISH_STOPWORDS } from 'stopword';

const toSimplified = OpenCC.Converter({ from: 't', to: 'cn' });
export const STOP = new Set([
  ...ENGLISH_STOPWORDS,
  ...'say says said tell tells mean means does did will would shall should can could may might must like just also get gets got make makes made thing things really much many even ever still yet let lets please want wants know knows think thinks anything something everything someone anyone one really'.split(' '),
]);

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

/** English content words, stemmed, without stopwords. */
export function englishTerms(normalized: string): string[] {
  const out: string[] = [];
  for (const word of normalized.match(WORD) ?? []) {
    if (STOP.has(word) || word.length < 2) continue;
    out.push(stemmer(word));
  }
  return out;
}

/** All index terms of a text: Han n-grams and stemmed English words. */
export function terms(text: string): string[] {
  const n = normalize(text);
  return [...cjkGrams(n), ...englishTerms(n)];
}

/** Han characters too common to carry a question's meaning on their own (modern and classical). */
const ZH_FUNCTION = new Set(Array.from('的了是吗呢么吧啊呀和与及或在对把被给向从以于也都就还又很更最不没有这那个些种样么什怎如何为哪谁几说讲谈讲请问一下我你他她它们要想会能可该应之其而者乎矣焉哉里'));
/** Particles: a bigram with one of them is never a word (的人, 白的, 么区, 之死). */
const PARTICLES = new Set(Array.from('的吗呢吧啊呀么之'));
/**
 * Modern adverbs and connectives that shape a sentence but say nothing about its topic (真正,
 * 往往, 突然, 最近). Their characters weigh nothing, and a bigram reaching into one (正明 in
 * 真正明白) is a seam, not a word.
 */
const MODERN_FUNCTION_WORDS = new Set(
  '真正 往往 总是 已经 因为 所以 但是 可是 如果 虽然 还是 就是 只是 其实 到底 究竟 一直 特别 有点 一点 感觉 觉得 最近 突然 当年 当时 比较 时候 一下 一些 这样 那样 这种 那种 然后 而且 并且 或者 甚至 不过 一定 好像 事情 东西'.split(' '),
);

export const isFunctionCharacter = (c: string) => ZH_FUNCTION.has(c);

/** Two function characters (什么), or a particle with anything (的人), make no word. */
const noWord = (a: string, b: string) => (ZH_FUNCTION.has(a) && ZH_FUNCTION.has(b)) || PARTICLES.has(a) || PARTICLES.has(b);

/** A question's Han terms with the positions of the characters each spans, and its English terms. */
export interface AnalysedQuestion {
  chars: string[];
  spans: { term: string; at: number[] }[];
  english: string[];
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
      spans.push({ term: cs[i]! + cs[i + 1]!, at: [base + i, base + i + 1] });
      inWord[i] = inWord[i + 1] = true;
    }
    cs.forEach((c, i) => {
      if (!inWord[i] && !spoken[i] && !ZH_FUNCTION.has(c)) spans.push({ term: c, at: [base + i] });
    });
  }
  return { chars, spans, english: englishTerms(n) };
}

/** Words of two or more Han characters that a question may be cut at (synonyms, concept names). */
export interface Lexicon {
  words: Set<string>;
  longest: number;
}

/**
 * Which known word each character belongs to (its start index), -1 for none: longest match
 * from the left. There is no word segmentation; these known words are the only cuts made.
 */
function knownWords(cs: string[], lexicon: Lexicon): number[] {
  const word = cs.map(() => -1);
  for (let i = 0; i < cs.length - 1; ) {
    let length = 0;
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
