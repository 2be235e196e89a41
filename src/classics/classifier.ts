/**
 * A text classifier learned from labelled examples: multinomial logistic regression over a text's
 * character n-grams (one to three Han characters in a row, no word segmentation needed; see
 * PITFALLS) and its Latin words and word pairs, all read from the normalised text (simplified
 * characters, lower case), so 無為 and 无为, Tao and tao are one feature.
 *
 * Hand-written patterns recognise the wordings someone thought of; the model weighs every
 * n-gram of every labelled example, so it also recognises a new wording built from the same
 * pieces (a pet given to a friend, debts paid, "not trouble anyone again"). The packs ship the
 * trained model as data (`npm run packs:train` writes it) and the service only predicts.
 *
 * Training is plain stochastic gradient descent with AdaGrad steps and an L2 penalty, over the
 * examples in an order drawn from a fixed seed: the same examples and options always give the
 * same model, to the last digit written.
 */
import { z } from 'zod';
import { normalize } from './text.js';

export const CLASSIFIER_FORMAT = 'ngram-softmax/1';

export const ClassifierFile = z
  .object({
    format: z.literal(CLASSIFIER_FORMAT),
    /** What the model decides, for the people who maintain it. */
    purpose: z.string().min(1),
    classes: z.array(z.string().min(1)).min(2),
    /** The caller's decision threshold on a class's probability (see each caller). */
    threshold: z.number().gt(0).lt(1),
    /** The probability of a class at which the model sets aside a hand-written rule's contrary verdict (see each caller); none: never. */
    overrule: z.number().gt(0).lt(1).optional(),
    /** Classes chosen as soon as their probability reaches a lower bar than the threshold's: those whose miss costs most. */
    classThresholds: z.record(z.string(), z.number().gt(0).lt(1)).optional(),
    /** What it was trained on: a label per source, the example count and a digest of the examples. */
    trainedOn: z.object({ sources: z.array(z.string()), examples: z.number().int().positive(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).passthrough(),
    options: z.object({ epochs: z.number().int().positive(), l2: z.number().min(0), learningRate: z.number().positive(), minCount: z.number().int().positive(), prune: z.number().min(0), seed: z.number().int() }),
    bias: z.array(z.number()),
    // The two large arrays are checked in place (z.custom): a schema that rebuilt them would hold
    // a second copy of some 60,000 rows in memory while the pack loads.
    features: z.custom<string[]>((v) => Array.isArray(v) && v.every((f) => typeof f === 'string' && f.length > 0), 'features: a list of non-empty strings'),
    /** Per feature, its non-zero weights as [class index, weight, class index, weight, ...]. */
    weights: z.custom<number[][]>((v) => Array.isArray(v) && v.every((row) => Array.isArray(row) && row.every((x) => typeof x === 'number')), 'weights: a list of lists of numbers'),
  })
  .superRefine((m, ctx) => {
    for (const c of Object.keys(m.classThresholds ?? {})) if (!m.classes.includes(c)) ctx.addIssue({ code: 'custom', message: `classThresholds names ${c}, not a class` });
    if (m.bias.length !== m.classes.length) ctx.addIssue({ code: 'custom', message: `bias has ${m.bias.length} entries for ${m.classes.length} classes` });
    if (m.weights.length !== m.features.length) ctx.addIssue({ code: 'custom', message: `${m.weights.length} weight rows for ${m.features.length} features` });
    const bad = m.weights.findIndex((row) => row.length % 2 !== 0 || row.some((x, i) => i % 2 === 0 && !(Number.isInteger(x) && x >= 0 && x < m.classes.length)));
    if (bad >= 0) ctx.addIssue({ code: 'custom', message: `weights[${bad}] is not a list of (class index, weight) pairs` });
    if (new Set(m.features).size !== m.features.length) ctx.addIssue({ code: 'custom', message: 'a feature is listed twice' });
  });
export type ClassifierModel = z.infer<typeof ClassifierFile>;

export interface TrainingOptions {
  epochs: number;
  l2: number;
  learningRate: number;
  /** A feature seen in fewer examples than this is left out (it would only learn its one example). */
  minCount: number;
  /** Weights smaller than this in magnitude are not written: they barely move a probability and would double the file. */
  prune: number;
  seed: number;
}

export const DEFAULT_TRAINING: TrainingOptions = { epochs: 8, l2: 1e-4, learningRate: 0.3, minCount: 2, prune: 0.05, seed: 1 };

const HAN_RUN = /\p{Script=Han}+/gu;
const WORD = /[a-z0-9']+/g;

/** The distinct features of a text: Han 1-, 2- and 3-grams within each run, Latin words and adjacent word pairs. */
export function textFeatures(text: string): string[] {
  const n = normalize(text);
  const out = new Set<string>();
  for (const run of n.match(HAN_RUN) ?? []) {
    const c = Array.from(run);
    for (let i = 0; i < c.length; i++) {
      out.add(c[i]!);
      if (i + 1 < c.length) out.add(c[i]! + c[i + 1]!);
      if (i + 2 < c.length) out.add(c[i]! + c[i + 1]! + c[i + 2]!);
    }
  }
  const words = n.match(WORD) ?? [];
  for (let i = 0; i < words.length; i++) {
    out.add(`w:${words[i]}`);
    if (i + 1 < words.length) out.add(`w:${words[i]} ${words[i + 1]}`);
  }
  return [...out];
}

export interface LabelledText {
  text: string;
  label: string;
}

/** A deterministic stream of numbers in [0, 1) (a 32-bit xorshift), for the training order. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Trains a model on the examples. Every label must be one of `classes`. `meta` is written into
 * the model as it is (purpose, threshold, what it was trained on).
 */
export function trainClassifier(
  examples: readonly LabelledText[],
  classes: readonly string[],
  meta: Pick<ClassifierModel, 'purpose' | 'threshold' | 'overrule' | 'classThresholds' | 'trainedOn'>,
  options: TrainingOptions = DEFAULT_TRAINING,
): ClassifierModel {
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const rows = examples.map((e) => {
    const y = classIndex.get(e.label);
    if (y === undefined) throw new Error(`training example with unknown label ${e.label}: ${e.text.slice(0, 60)}`);
    return { features: textFeatures(e.text), y };
  });
  const seen = new Map<string, number>();
  for (const r of rows) for (const f of r.features) seen.set(f, (seen.get(f) ?? 0) + 1);
  const vocabulary = new Map<string, number>();
  for (const [f, count] of seen) if (count >= options.minCount) vocabulary.set(f, vocabulary.size);
  const K = classes.length;
  const F = vocabulary.size;
  const W = new Float64Array(F * K);
  const G = new Float64Array(F * K).fill(1e-8);
  const bias = new Float64Array(K);
  const Gb = new Float64Array(K).fill(1e-8);
  const encoded = rows.map((r) => ({ idx: r.features.flatMap((f) => (vocabulary.has(f) ? [vocabulary.get(f)!] : [])), y: r.y }));
  const order = encoded.map((_, i) => i);
  const next = random(options.seed);
  const p = new Float64Array(K);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const at of order) {
      const { idx, y } = encoded[at]!;
      softmax(idx, W, bias, K, p);
      for (let k = 0; k < K; k++) {
        const g = p[k]! - (k === y ? 1 : 0);
        Gb[k]! += g * g;
        bias[k]! -= (options.learningRate * g) / Math.sqrt(Gb[k]!);
        for (const f of idx) {
          const w = f * K + k;
          const gw = g + options.l2 * W[w]!;
          G[w]! += gw * gw;
          W[w]! -= (options.learningRate * gw) / Math.sqrt(G[w]!);
        }
      }
    }
  }
  const features: string[] = [];
  const weights: number[][] = [];
  for (const [f, i] of vocabulary) {
    const row: number[] = [];
    for (let k = 0; k < K; k++) {
      const w = round(W[i * K + k]!);
      if (Math.abs(w) >= options.prune && w !== 0) row.push(k, w);
    }
    if (row.length) {
      features.push(f);
      weights.push(row);
    }
  }
  return { format: CLASSIFIER_FORMAT, ...meta, classes: [...classes], options, bias: [...bias].map(round), features, weights };
}

/** Fills `out` with the class probabilities of a text's feature indexes. */
function softmax(idx: readonly number[], W: Float64Array | Float32Array, bias: ArrayLike<number>, K: number, out: Float64Array): void {
  let max = -Infinity;
  for (let k = 0; k < K; k++) {
    let s = bias[k]!;
    for (const f of idx) s += W[f * K + k]!;
    out[k] = s;
    if (s > max) max = s;
  }
  let z = 0;
  for (let k = 0; k < K; k++) {
    out[k] = Math.exp(out[k]! - max);
    z += out[k]!;
  }
  for (let k = 0; k < K; k++) out[k]! /= z;
}

export interface Prediction {
  /** Each class's probability, by class name. */
  probabilities: Record<string, number>;
  /** The most probable class. */
  best: string;
}

/** A trained model, ready to predict: its weights in one flat array, a row of K per feature. */
export class TextClassifier {
  readonly classes: readonly string[];
  readonly threshold: number;
  /** The model file but its features and weights (which live on in `rows` and `weights`). */
  readonly meta: Omit<ClassifierModel, 'features' | 'weights'>;
  private readonly rows = new Map<string, number>();
  private readonly weights: Float32Array;
  private readonly bias: number[];

  constructor(model: ClassifierModel) {
    const { features: _features, weights: _weights, ...meta } = model;
    this.meta = meta;
    this.classes = model.classes;
    this.threshold = model.threshold;
    this.bias = model.bias;
    const K = model.classes.length;
    this.weights = new Float32Array(model.features.length * K);
    model.features.forEach((f, i) => {
      this.rows.set(f, i);
      const row = model.weights[i]!;
      for (let j = 0; j < row.length; j += 2) this.weights[i * K + row[j]!] = row[j + 1]!;
    });
  }

  predict(text: string): Prediction {
    const K = this.classes.length;
    const idx: number[] = [];
    for (const f of textFeatures(text)) {
      const row = this.rows.get(f);
      if (row !== undefined) idx.push(row);
    }
    const p = new Float64Array(K);
    softmax(idx, this.weights, this.bias, K, p);
    const probabilities: Record<string, number> = {};
    let best = 0;
    for (let k = 0; k < K; k++) {
      probabilities[this.classes[k]!] = p[k]!;
      if (p[k]! > p[best]!) best = k;
    }
    return { probabilities, best: this.classes[best]! };
  }
}
