/**
 * Precedents: questions already judged, each with the passages a good answer rests on (written
 * by the evaluation sets' authors, who chose them from the full text of every passage). A new
 * question borrows the passages its nearest precedents were answered from: a life story told in
 * modern words (a layoff, a brother who will not repay a loan) shares few words with the passage
 * that meets it, but many with stories told before.
 *
 * Nearness is the cosine of TF-IDF vectors over the classifier's n-gram features; the passages of
 * the nearest `neighbours` precedents are voted for by their similarity, shared among each
 * precedent's passages. What a precedent lends is only a passage: the answer still rests on that
 * passage's own claims and quotes, validated as any other evidence.
 */
import { z } from 'zod';
import { textFeatures } from './classifier.js';
import type { Passage } from './model.js';

export const PRECEDENTS_FORMAT = 'precedents/1';

export const PrecedentsFile = z.object({
  format: z.literal(PRECEDENTS_FORMAT),
  trainedOn: z.object({ sources: z.array(z.string()), examples: z.number().int().positive(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).passthrough(),
  /** How many of the nearest precedents vote. */
  neighbours: z.number().int().positive(),
  /** The cosine similarity below which a precedent is not near enough to vote. */
  minSimilarity: z.number().min(0).max(1),
  /** The share of the votes a passage needs to be lent to an answer. */
  minShare: z.number().gt(0).max(1),
  /** The relevance a lent passage has as evidence (retrieval's matches range 0-1). */
  relevance: z.number().gt(0).max(1),
  /** Each precedent: its question and the ids of the passages that answer it. */
  questions: z.custom<{ q: string; p: string[] }[]>(
    (v) => Array.isArray(v) && v.every((x) => typeof x?.q === 'string' && x.q.length > 0 && Array.isArray(x.p) && x.p.length > 0 && x.p.every((id: unknown) => typeof id === 'string')),
    'questions: a list of {q: question, p: [passage ids]}',
  ),
});
export type PrecedentsData = z.infer<typeof PrecedentsFile>;

export interface Suggestion {
  passage: Passage;
  /** The passage's share of all the votes cast (0-1). */
  share: number;
  /** The similarity of the nearest precedent that voted for it. */
  similarity: number;
}

/** The precedents indexed for search: built at the first search, or in slices by warm(). */
interface PrecedentIndex {
  /** Each feature's slot; per slot its inverse document frequency and (offsets) its run of postings. */
  slots: Map<string, number>;
  idf: Float64Array;
  offsets: Uint32Array;
  /** Postings, slot after slot: the precedent, and the feature's weight in its unit vector. */
  docs: Uint32Array;
  weights: Float32Array;
  /** Per slot, the largest weight among its postings: what the feature can add to any precedent at most. */
  maxWeight: Float32Array;
  /** The same weights precedent by precedent (rows of slots in increasing order), for looking one up. */
  rowOffsets: Uint32Array;
  rowSlots: Uint32Array;
  rowWeights: Float32Array;
  /** Per precedent, the passages it was answered from. */
  passages: Passage[][];
  /** Per precedent, its similarity in the search under way (a search runs without yielding). */
  scratch: Float64Array;
}

/** How many precedents warm() indexes between two turns of the event loop. */
const WARM_SLICE = 250;

export class Precedents {
  private index: PrecedentIndex | undefined;
  private warming: Promise<void> | undefined;
  /** The file's parameters; its questions are kept only until they are indexed. */
  private readonly params: Pick<PrecedentsData, 'neighbours' | 'minSimilarity' | 'minShare' | 'relevance'>;
  private questions: PrecedentsData['questions'] | undefined;
  readonly size: number;

  constructor(
    data: PrecedentsData,
    private readonly passageById: ReadonlyMap<string, Passage>,
  ) {
    this.params = { neighbours: data.neighbours, minSimilarity: data.minSimilarity, minShare: data.minShare, relevance: data.relevance };
    this.questions = data.questions;
    this.size = data.questions.length;
  }

  get minShare(): number {
    return this.params.minShare;
  }

  get relevance(): number {
    return this.params.relevance;
  }

  /**
   * Builds the index in slices, yielding to the event loop between them, so that a server can
   * answer while it is built (a start does not wait for it). A search that comes first builds
   * the index at once, and this build stops at its next slice.
   */
  warm(): Promise<void> {
    if (this.index) return Promise.resolve();
    this.warming ??= (async () => {
      let n = 0;
      const steps = this.build(() => ++n % WARM_SLICE === 0);
      while (!this.index) {
        const step = steps.next();
        if (step.done) this.adopt(step.value);
        else await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
    return this.warming;
  }

  private indexed(): PrecedentIndex {
    if (!this.index) {
      const steps = this.build(() => false);
      let step = steps.next();
      while (!step.done) step = steps.next();
      this.adopt(step.value);
    }
    return this.index!;
  }

  private adopt(index: PrecedentIndex): void {
    this.index = index;
    this.questions = undefined;
  }

  /** The index, a step per precedent read and per precedent filed, pausing where `pause` says. */
  private *build(pause: () => boolean): Generator<void, PrecedentIndex> {
    const questions = this.questions!;
    const slots = new Map<string, number>();
    const passages: Passage[][] = [];
    const features: number[][] = [];
    for (const q of questions) {
      passages.push(q.p.map((id) => this.passageById.get(id)).filter((p): p is Passage => p !== undefined));
      features.push(
        textFeatures(q.q).map((x) => {
          let slot = slots.get(x);
          if (slot === undefined) slots.set(x, (slot = slots.size));
          return slot;
        }),
      );
      if (pause()) yield;
    }
    const n = features.length;
    const df = new Uint32Array(slots.size);
    for (const f of features) for (const slot of f) df[slot]!++;
    const idf = Float64Array.from(df, (d) => Math.log((n + 1) / (d + 1)));
    const offsets = new Uint32Array(df.length + 1);
    for (let slot = 0; slot < df.length; slot++) offsets[slot + 1] = offsets[slot]! + df[slot]!;
    const total = offsets[df.length]!;
    const docs = new Uint32Array(total);
    const weights = new Float32Array(total);
    const maxWeight = new Float32Array(df.length);
    const rowOffsets = new Uint32Array(n + 1);
    const rowSlots = new Uint32Array(total);
    const rowWeights = new Float32Array(total);
    const fill = offsets.slice(0, df.length);
    for (let doc = 0; doc < n; doc++) {
      const f = features[doc]!;
      const norm = Math.sqrt(f.reduce((sum, slot) => sum + idf[slot]! ** 2, 0)) || 1;
      const row = rowOffsets[doc]!;
      rowOffsets[doc + 1] = row + f.length;
      [...f].sort((a, b) => a - b).forEach((slot, i) => {
        const at = fill[slot]!++;
        docs[at] = doc;
        weights[at] = idf[slot]! / norm;
        rowSlots[row + i] = slot;
        rowWeights[row + i] = weights[at]!;
        if (weights[at]! > maxWeight[slot]!) maxWeight[slot] = weights[at]!;
      });
      if (pause()) yield;
    }
    return { slots, idf, offsets, docs, weights, maxWeight, rowOffsets, rowSlots, rowWeights, passages, scratch: new Float64Array(n) };
  }

  /** A precedent's weight for a feature slot (0 when it lacks the feature), by binary search in its row. */
  private static rowWeight(index: PrecedentIndex, doc: number, slot: number): number {
    let lo = index.rowOffsets[doc]!;
    let hi = index.rowOffsets[doc + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = index.rowSlots[mid]!;
      if (at === slot) return index.rowWeights[mid]!;
      if (at < slot) lo = mid + 1;
      else hi = mid;
    }
    return 0;
  }

  /** The passages the nearest precedents rest on, best voted first, among those `accept` lets through. */
  suggest(question: string, accept: (p: Passage) => boolean = () => true): Suggestion[] {
    const index = this.indexed();
    const { idf, maxWeight, offsets, docs, weights } = index;
    const query = textFeatures(question).flatMap((x) => {
      const slot = index.slots.get(x);
      return slot === undefined ? [] : [slot];
    });
    const norm = Math.sqrt(query.reduce((sum, slot) => sum + idf[slot]! ** 2, 0));
    if (!norm) return [];
    const similarity = index.scratch;
    const minSimilarity = this.params.minSimilarity;
    // What is left to add is a running difference of sums: the bar it is held to allows for their rounding.
    const bar = minSimilarity - 1e-9;
    // Rarest features first. Once all the features left could add to a precedent no more than
    // minSimilarity, a precedent none of the earlier ones reached cannot become near enough: the
    // common features left (long runs of postings: 的, "the") are then looked up in the rows of
    // the precedents already reached instead of walked through. The result is the full sum's.
    const order = [...query].sort((a, b) => idf[b]! - idf[a]! || a - b);
    let reach = 0;
    for (const slot of order) reach += (idf[slot]! / norm) * maxWeight[slot]!;
    let touched: number[] = [];
    for (const slot of order) {
      const weight = idf[slot]! / norm;
      const start = offsets[slot]!;
      const end = offsets[slot + 1]!;
      if (reach < bar && touched.length) {
        // Precedents that cannot reach minSimilarity with everything left are let go.
        touched = touched.filter((doc) => {
          if (similarity[doc]! + reach >= bar) return true;
          similarity[doc] = 0;
          return false;
        });
      }
      if (reach >= bar || end - start <= 8 * touched.length) {
        for (let i = start; i < end; i++) {
          const doc = docs[i]!;
          if (similarity[doc] === 0) {
            if (reach < bar) continue;
            touched.push(doc);
          }
          similarity[doc]! += weight * weights[i]!;
        }
      } else {
        for (const doc of touched) similarity[doc]! += weight * Precedents.rowWeight(index, doc, slot);
      }
      reach -= weight * maxWeight[slot]!;
    }
    const near: [number, number][] = [];
    for (const doc of touched) {
      if (similarity[doc]! >= minSimilarity) near.push([doc, similarity[doc]!]);
      similarity[doc] = 0;
    }
    const nearest = near.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, this.params.neighbours);
    const votes = new Map<string, Suggestion>();
    let total = 0;
    for (const [doc, s] of nearest) {
      const passages = index.passages[doc]!.filter(accept);
      for (const passage of passages) {
        const vote = votes.get(passage.id) ?? { passage, share: 0, similarity: s };
        vote.share += s / passages.length;
        votes.set(passage.id, vote);
      }
      if (passages.length) total += s;
    }
    const out = [...votes.values()];
    for (const v of out) v.share /= total;
    return out.sort((a, b) => b.share - a.share || a.passage.id.localeCompare(b.passage.id));
  }
}
