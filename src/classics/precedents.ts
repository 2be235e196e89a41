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

export class Precedents {
  /** Each feature's slot; per slot its inverse document frequency and (offsets) its run of postings. */
  private readonly slots = new Map<string, number>();
  private readonly idf: Float64Array;
  private readonly offsets: Uint32Array;
  /** Postings, slot after slot: the precedent, and the feature's weight in its unit vector. */
  private readonly docs: Uint32Array;
  private readonly weights: Float32Array;
  private readonly passages: Passage[][];
  /** Per slot, the largest weight among its postings: what the feature can add to any precedent at most. */
  private readonly maxWeight: Float32Array;
  /** The same weights precedent by precedent (rows of slots in increasing order), for looking one up. */
  private readonly rowOffsets: Uint32Array;
  private readonly rowSlots: Uint32Array;
  private readonly rowWeights: Float32Array;
  /** Per precedent, its similarity in the search under way (a search runs without yielding). */
  private readonly scratch: Float64Array;

  /** The file's parameters; its questions are not kept once indexed. */
  private readonly params: Pick<PrecedentsData, 'neighbours' | 'minSimilarity' | 'minShare' | 'relevance'>;

  constructor(data: PrecedentsData, passageById: ReadonlyMap<string, Passage>) {
    this.params = { neighbours: data.neighbours, minSimilarity: data.minSimilarity, minShare: data.minShare, relevance: data.relevance };
    this.passages = data.questions.map((q) => q.p.map((id) => passageById.get(id)).filter((p): p is Passage => p !== undefined));
    const features = data.questions.map((q) => textFeatures(q.q).map((x) => {
      let slot = this.slots.get(x);
      if (slot === undefined) this.slots.set(x, (slot = this.slots.size));
      return slot;
    }));
    const n = features.length;
    const df = new Uint32Array(this.slots.size);
    for (const f of features) for (const slot of f) df[slot]!++;
    this.idf = Float64Array.from(df, (d) => Math.log((n + 1) / (d + 1)));
    this.offsets = new Uint32Array(df.length + 1);
    for (let slot = 0; slot < df.length; slot++) this.offsets[slot + 1] = this.offsets[slot]! + df[slot]!;
    this.docs = new Uint32Array(this.offsets[df.length]!);
    this.weights = new Float32Array(this.docs.length);
    this.maxWeight = new Float32Array(df.length);
    this.rowOffsets = new Uint32Array(n + 1);
    this.rowSlots = new Uint32Array(this.docs.length);
    this.rowWeights = new Float32Array(this.docs.length);
    const fill = this.offsets.slice(0, df.length);
    features.forEach((f, doc) => {
      const norm = Math.sqrt(f.reduce((sum, slot) => sum + this.idf[slot]! ** 2, 0)) || 1;
      const row = this.rowOffsets[doc]!;
      this.rowOffsets[doc + 1] = row + f.length;
      [...f].sort((a, b) => a - b).forEach((slot, i) => {
        const weight = this.idf[slot]! / norm;
        const at = fill[slot]!++;
        this.docs[at] = doc;
        this.weights[at] = weight;
        this.rowSlots[row + i] = slot;
        this.rowWeights[row + i] = weight;
        if (this.weights[at]! > this.maxWeight[slot]!) this.maxWeight[slot] = this.weights[at]!;
      });
    });
    this.scratch = new Float64Array(n);
  }

  get size(): number {
    return this.passages.length;
  }

  get minShare(): number {
    return this.params.minShare;
  }

  get relevance(): number {
    return this.params.relevance;
  }

  /** A precedent's weight for a feature slot (0 when it lacks the feature), by binary search in its row. */
  private rowWeight(doc: number, slot: number): number {
    let lo = this.rowOffsets[doc]!;
    let hi = this.rowOffsets[doc + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.rowSlots[mid]!;
      if (at === slot) return this.rowWeights[mid]!;
      if (at < slot) lo = mid + 1;
      else hi = mid;
    }
    return 0;
  }

  /** The passages the nearest precedents rest on, best voted first, among those `accept` lets through. */
  suggest(question: string, accept: (p: Passage) => boolean = () => true): Suggestion[] {
    const query = textFeatures(question).flatMap((x) => {
      const slot = this.slots.get(x);
      return slot === undefined ? [] : [slot];
    });
    const norm = Math.sqrt(query.reduce((sum, slot) => sum + this.idf[slot]! ** 2, 0));
    if (!norm) return [];
    const similarity = this.scratch;
    const { idf, maxWeight, offsets, docs, weights } = this;
    const minSimilarity = this.params.minSimilarity;
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
      if (reach < minSimilarity && touched.length) {
        // Precedents that cannot reach minSimilarity with everything left are let go.
        touched = touched.filter((doc) => {
          if (similarity[doc]! + reach >= minSimilarity) return true;
          similarity[doc] = 0;
          return false;
        });
      }
      if (reach >= minSimilarity || end - start <= 8 * touched.length) {
        for (let i = start; i < end; i++) {
          const doc = docs[i]!;
          if (similarity[doc] === 0) {
            if (reach < minSimilarity) continue;
            touched.push(doc);
          }
          similarity[doc]! += weight * weights[i]!;
        }
      } else {
        for (const doc of touched) similarity[doc]! += weight * this.rowWeight(doc, slot);
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
      const passages = this.passages[doc]!.filter(accept);
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
