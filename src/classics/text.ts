import * as OpenCC from 'opencc-js';
import { stemmer } from 'stemmer';
import { eng as ENGLISH_STOPWORDS } from 'stopword';

const toSimplified = OpenCC.Converter({ from: 't', to: 'cn' });
export const STOP = new Set([
  ...ENGLISH_STOPWORDS,
  ...'say says said tell tells mean means does did will would shall should can could may might must like just also get gets got make makes made thing things really much many even ever still yet let lets please want wants know knows think thinks anything something everything someone anyone'.split(' '),
]);

const CJK = /\p{Script=Han}/u;
const CJK_RUN = /\p{Script=Han}+/gu;
const WORD = /[a-z0-9]+/g;

/**
 * One normal form for index and query: NFKC (folds full-width letters, digits and punctuation),
 * traditional characters to simplified (無為 and 无为 meet), lower case, diacritics removed from
 * Latin letters (pinyin tones, Röntgen).
 */
export function normalize(text: string): string {
  const simplified = toSimplified(text.normalize('NFKC'));
  return simplified
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase();
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

/** The language of a question: zh when it has Han characters, en otherwise. */
export const languageOf = (text: string): 'zh' | 'en' => (isCjk(text) ? 'zh' : 'en');
