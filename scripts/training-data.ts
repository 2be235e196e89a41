/**
 * The labelled examples the packs' two learned models are trained on, from the Gate fixtures and
 * the evaluation sets in test/eval. Shared by `npm run packs:train`, which trains on them, and
 * `npm run packs:check`, which fails when a shipped model was trained on other examples than
 * these (a fixture or set changed since, and the model was not trained again).
 *
 * A set joins the training data only up to the number the model records (`gateSets`,
 * `questionSets`), so the sets written after a model was trained stay unseen by it: `npm run
 * eval` measures the model on them.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LabelledText } from '../src/classics/classifier.js';
import type { Knowledge } from '../src/classics/packs.js';

export const GATE_CLASSES = ['allow', 'crisis', 'medical', 'legal', 'financial', 'psychological', 'divination', 'prediction', 'misreading', 'out_of_scope'] as const;
export const ANSWERABILITY_CLASSES = ['answerable', 'no_evidence', 'false_premise', 'out_of_scope'] as const;

/** Early sets named two categories otherwise; they are the same requests. */
const CATEGORY_ALIASES: Record<string, string> = { mental_health: 'psychological', off_topic: 'out_of_scope' };

interface GateCase {
  text: string;
  expect: 'block' | 'allow';
  category: string;
}
interface Question {
  question: string;
  answerable: boolean;
  kind: string;
}

/** The numbered sets of one kind in a folder, set 1 being `first`. */
export function numberedFiles(dir: string, first: string, pattern: RegExp): { n: number; path: string }[] {
  const out = [{ n: 1, path: join(dir, first) }];
  for (const file of readdirSync(dir)) {
    const m = pattern.exec(file);
    if (m) out.push({ n: Number(m[1]), path: join(dir, file) });
  }
  return out.sort((a, b) => a.n - b.n);
}

const read = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;
export const gateSetFiles = (evalDir: string) => numberedFiles(evalDir, 'gate-heldout.json', /^gate-heldout-(\d+)\.json$/);
export const questionSetFiles = (evalDir: string) => numberedFiles(evalDir, 'questions.json', /^questions-heldout-(\d+)\.json$/);

const gateLabel = (c: GateCase) => (c.expect === 'allow' ? 'allow' : (CATEGORY_ALIASES[c.category] ?? c.category));

interface SituationText {
  phrasings_zh: string[];
  phrasings_en: string[];
  tension_zh: string;
  tension_en: string;
}

/**
 * The Gate model's examples: every fixture, the Gate sets up to `gateSets`, and, as text to allow,
 * every wording of the packs' life situations and every answerable question of the question sets
 * up to `questionSets`. Without those a model learns that a personal story (a layoff, a parent in
 * hospital, money lost) is a request for a professional's verdict: the Gate sets' stories mostly
 * end in one. Each text is prepared as the Gate reads it (`Gate.prepare`).
 */
export function gateExamples(coreDir: string, evalDir: string, gateSets: number, questionSets: number, prepare: (text: string) => string): LabelledText[] {
  const fixtures = read<GateCase[]>(join(coreDir, 'gate-fixtures.json'));
  const situations = read<SituationText[]>(join(coreDir, 'situations.json')).flatMap((s) => [...s.phrasings_zh, ...s.phrasings_en, s.tension_zh, s.tension_en]);
  const sets = gateSetFiles(evalDir).filter((f) => f.n <= gateSets).flatMap((f) => read<GateCase[]>(f.path));
  const questions = questionSetFiles(evalDir).filter((f) => f.n <= questionSets).flatMap((f) => read<Question[]>(f.path)).filter((q) => q.answerable);
  return [
    ...[...fixtures, ...sets].map((c) => ({ text: prepare(c.text), label: gateLabel(c) })),
    ...situations.map((text) => ({ text: prepare(text), label: 'allow' })),
    ...questions.map((q) => ({ text: prepare(q.question), label: 'allow' })),
  ];
}

/** The first sentence of a text (to the first full stop, question or exclamation mark, or semicolon). */
const firstSentence = (text: string) => text.split(/(?<=[。！？；.!?;])/u)[0]!.trim();

const CLASSIC_NAMES: Record<string, { en: string; zh: string }> = {
  daodejing: { en: 'the Daodejing', zh: '道德经' },
  analects: { en: 'the Analects', zh: '论语' },
  yijing: { en: 'the Yijing', zh: '易经' },
  'diamond-sutra': { en: 'the Diamond Sutra', zh: '金刚经' },
  chuanxilu: { en: 'the Chuanxilu', zh: '传习录' },
};

/**
 * The answerability model's examples: every question of the sets up to `questionSets`, labelled
 * answerable or by its kind; and, as answerable, what the packs themselves hold: the first
 * sentence of every passage in Chinese and English (a reader pastes a line: 上善若水), every name
 * of every concept (无为, wu wei), every wording of the life situations, and the plainest
 * questions about each concept in the classics that hold it ("What does the Daodejing say about
 * the highest good is like water?", 论语里怎么讲仁？). The sets' unanswerable questions are often
 * of that last form about a thing no classic mentions (smartphones, dinosaurs); without the pack's
 * own topics asked the same way, a model learns the form instead of the topic.
 */
export function answerabilityExamples(evalDir: string, questionSets: number, k: Pick<Knowledge, 'passages' | 'concepts' | 'situations' | 'passageByLocator'>): LabelledText[] {
  const questions = questionSetFiles(evalDir)
    .filter((f) => f.n <= questionSets)
    .flatMap((f) => read<Question[]>(f.path))
    .map((q) => ({ text: q.question, label: q.answerable ? 'answerable' : q.kind }));
  const asked = k.concepts.flatMap((c) => {
    const classics = [...new Set(c.key_locators.map((l) => k.passageByLocator.get(l)?.packId).filter((id): id is string => id !== undefined && id in CLASSIC_NAMES))];
    return classics.flatMap((id) => {
      const name = CLASSIC_NAMES[id]!;
      return [`What does ${name.en} say about ${c.en}?`, `${name.zh}里怎么讲${c.zh}？`, `What is ${c.en} in ${name.en}?`, `${name.zh}说的“${c.zh}”是什么意思`];
    });
  });
  const packTexts = [
    ...k.passages.flatMap((p) => [firstSentence(p.text), ...(p.en ? [firstSentence(p.en)] : [])]),
    ...k.concepts.flatMap((c) => [c.zh, c.en, ...c.aliases]),
    ...k.situations.flatMap((s) => [...s.phrasings_zh, ...s.phrasings_en]),
    ...asked,
  ].filter((text) => text.length > 0);
  return [...questions, ...packTexts.map((text) => ({ text, label: 'answerable' }))];
}

/** A digest of the examples, in order: what a model records to show what it was trained on. */
export function examplesDigest(examples: readonly LabelledText[]): string {
  const hash = createHash('sha256');
  for (const e of examples) hash.update(e.label).update('\0').update(e.text).update('\0');
  return hash.digest('hex');
}

interface AnsweredQuestion extends Question {
  expected_locators?: string[];
}

/**
 * The precedents: every answerable question of the sets up to `questionSets`, with the ids of the
 * passages its writer expected an answer to rest on. A whole hexagram ("Yijing 15") stands for
 * its judgment, the passage every part of it comments on.
 */
export function precedentExamples(evalDir: string, questionSets: number, k: Pick<Knowledge, 'passageByLocator'>): { q: string; p: string[] }[] {
  const idOf = (locator: string) => {
    const whole = /^Yijing (\d+)$/.exec(locator);
    return whole ? `yijing.${whole[1]}.judgment` : k.passageByLocator.get(locator)?.id;
  };
  return questionSetFiles(evalDir)
    .filter((f) => f.n <= questionSets)
    .flatMap((f) => read<AnsweredQuestion[]>(f.path))
    .filter((q) => q.answerable)
    .map((q) => ({ q: q.question, p: [...new Set((q.expected_locators ?? []).map(idOf).filter((id): id is string => id !== undefined))] }))
    .filter((q) => q.p.length > 0);
}
