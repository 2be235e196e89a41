import { polyphonic } from 'pinyin-pro';
import type { Knowledge } from './packs.js';
import { PINYIN } from './text.js';

/** Words and what stands between them: a line typed in pinyin has one word per syllable, apart by spaces, commas or dashes. */
const WORD = /[a-z]+/g;
const BETWEEN = /^[\s,，、-]+$/;

/** Fewer syllables than this are as often English words (he is a man) as a line. */
export const MIN_SYLLABLES = 4;
/** The longest line looked for: a couplet or a short saying, not a chapter typed in pinyin. */
const MAX_SYLLABLES = 32;

interface Place {
  passage: number;
  /** Index into the passage's Han characters. */
  at: number;
}

/**
 * Where each line of the classics can be found by its sound: users type a line they remember in
 * pinyin (si shi er bu huo, gong cheng shen tui) and no passage carries pinyin. Every reading of
 * every character counts (乐 is le, yue and yao: 知者乐水 is typed both ways), so a typed line is
 * found wherever its characters could be read that way. Made once per release, at the first
 * question that has a pinyin run, from pinyin-pro's dictionary.
 */
export class PinyinLines {
  private readonly han: string[][] = [];
  /** Per passage, where each Han character stands in its text (to quote with its punctuation). */
  private readonly offsets: number[][] = [];
  private readonly texts: string[] = [];
  /** Each pair of syllables' places ("zhi zhe"), to start the search from a run's first two. */
  private readonly byPair = new Map<string, Place[]>();
  private readonly readings = new Map<string, Set<string>>();

  constructor(k: Knowledge) {
    const distinct = new Set<string>();
    for (const p of k.passages) {
      const chars: string[] = [];
      const offsets: number[] = [];
      let offset = 0;
      for (const c of p.text) {
        if (/\p{Script=Han}/u.test(c)) {
          chars.push(c);
          offsets.push(offset);
          distinct.add(c);
        }
        offset += c.length;
      }
      this.han.push(chars);
      this.offsets.push(offsets);
      this.texts.push(p.text);
    }
    const all = [...distinct];
    const readings = polyphonic(all.join(''), { toneType: 'none', type: 'array' }) as string[][];
    all.forEach((c, i) => this.readings.set(c, new Set((readings[i] ?? []).map((r) => r.replace(/ü/g, 'v')))));
    this.han.forEach((chars, passage) => {
      for (let at = 0; at + 1 < chars.length; at++) {
        for (const first of this.readings.get(chars[at]!) ?? []) {
          for (const second of this.readings.get(chars[at + 1]!) ?? []) {
            const key = `${first} ${second}`;
            let places = this.byPair.get(key);
            if (!places) this.byPair.set(key, (places = []));
            places.push({ passage, at });
          }
        }
      }
    });
  }

  /**
   * The line of the classics these syllables spell, as its passage writes it (with its own
   * punctuation), or undefined when none does. Two passages holding the same line (a saying
   * repeated in the Analects) give the same text; lines that differ make the run ambiguous.
   */
  lineOf(syllables: string[]): string | undefined {
    const found = new Set<string>();
    for (const { passage, at } of this.byPair.get(`${syllables[0]} ${syllables[1]}`) ?? []) {
      const chars = this.han[passage]!;
      if (at + syllables.length > chars.length) continue;
      let ok = true;
      for (let i = 2; i < syllables.length && ok; i++) ok = this.readings.get(chars[at + i]!)!.has(syllables[i]!);
      if (!ok) continue;
      const offsets = this.offsets[passage]!;
      const end = offsets[at + syllables.length - 1]!;
      found.add(this.texts[passage]!.slice(offsets[at]!, end + chars[at + syllables.length - 1]!.length));
      if (found.size > 1) return undefined;
    }
    return found.size === 1 ? [...found][0] : undefined;
  }
}

const LINES = new WeakMap<Knowledge, PinyinLines>();

/**
 * The question with each line it gives in pinyin written out in Han characters, quoted, when the
 * classics hold that line: "zhi zhe le shui, ren zhe le shan 出自哪里" -> “知者乐水，仁者乐山” 出自哪里.
 * A run no line spells is left as it is: it may be English (i have no time) or a line these texts
 * do not hold. The text is in normal form (lower case, see normalize).
 */
export function pinyinSpelledOut(text: string, k: Knowledge): string {
  const words = [...text.matchAll(WORD)].map((m) => ({ word: m[0], start: m.index!, end: m.index! + m[0].length }));
  // Runs of syllables, each word one syllable and joined by a separator only.
  const runs: (typeof words)[] = [];
  let run: typeof words = [];
  for (const w of words) {
    const joined = run.length > 0 && BETWEEN.test(text.slice(run[run.length - 1]!.end, w.start));
    if (PINYIN.test(w.word) && (joined || run.length === 0)) run.push(w);
    else {
      if (run.length >= MIN_SYLLABLES) runs.push(run);
      run = PINYIN.test(w.word) ? [w] : [];
    }
  }
  if (run.length >= MIN_SYLLABLES) runs.push(run);
  if (!runs.length) return text;
  let lines = LINES.get(k);
  if (!lines) LINES.set(k, (lines = new PinyinLines(k)));
  const spelled: { start: number; end: number; line: string }[] = [];
  // A question repeats itself at most a few ways; a long run of one syllable repeats one window.
  const seen = new Map<string, string | undefined>();
  const lineOf = (syllables: string[]) => {
    const key = syllables.join(' ');
    if (!seen.has(key)) seen.set(key, lines!.lineOf(syllables));
    return seen.get(key);
  };
  for (const r of runs) {
    // The longest stretch of the run that is a line: a run may begin or end with an English word
    // that is also a syllable (a, he, you). A line begins with one of MIN_SYLLABLES that is a line
    // too, so only such starts are extended.
    let best: { from: number; length: number; line: string } | undefined;
    for (let from = 0; from + MIN_SYLLABLES <= r.length; from++) {
      const words = r.slice(from, from + MAX_SYLLABLES).map((w) => w.word);
      if (!lineOf(words.slice(0, MIN_SYLLABLES))) continue;
      for (let length = words.length; length >= MIN_SYLLABLES && (!best || length > best.length); length--) {
        const line = lineOf(words.slice(0, length));
        if (line) best = { from, length, line };
      }
    }
    if (best) spelled.push({ start: r[best.from]!.start, end: r[best.from + best.length - 1]!.end, line: best.line });
  }
  let out = text;
  for (const { start, end, line } of spelled.reverse()) out = `${out.slice(0, start)}“${line}”${out.slice(end)}`;
  return out;
}
