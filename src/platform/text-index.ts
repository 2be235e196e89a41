/**
 * BM25 search over a fixed set of documents: TextIndex matches whole terms (atlas descriptions,
 * the classics' passages); ExpandingIndex adds prefix and fuzzy matching (atlas names).
 *
 * Exact-term matching needs no term tree: a hash map from term to packed posting lists (document
 * ordinals and term frequencies in typed arrays) per field answers the same queries. On a
 * 100,000-entity atlas pack this builds several times faster than a MiniSearch index of the same
 * field and takes a fraction of its memory; over the classics' passages a search runs several
 * times faster, with no objects allocated per matching document.
 *
 * Scores and order are MiniSearch's for exact term matching, so that both engines can be used
 * side by side and either swapped for the other: BM25+ with k = 1.2, b = 0.7, d = 0.5 per field;
 * a field's length is its number of distinct terms and its average is MiniSearch's running one;
 * a term scores in each field it occurs in, times the field's boost and the term's weight; a
 * document's score is multiplied by the number of distinct query terms it matched; a repeated
 * query term adds its score again. Results come best first, ties in the order the documents were
 * first matched. Tests hold the two engines to equal scores and order.
 */
import SearchableMap from 'minisearch/SearchableMap';
import { FuzzyTerms } from './fuzzy-terms.js';

const K = 1.2;
const B = 0.7;
const D = 0.5;

/**
 * One field's postings: a term's slot, and where its documents sit in the shared `docs` and
 * `freqs` arrays (from offsets[slot] to offsets[slot + 1]). One contiguous pair of arrays for
 * every term, rather than two small typed arrays per term, saves about 200 bytes a term.
 */
interface FieldPostings {
  slots: Map<string, number>;
  offsets: Uint32Array<ArrayBufferLike>;
}

export interface TextIndexOptions<T> {
  fields: readonly string[];
  /** A field's text; null or undefined leaves the field out for that document. */
  extract: (doc: T, field: string) => string | null | undefined;
  id: (doc: T) => string;
  tokenize: (text: string) => string[];
  /**
   * Keep each posting's part of the BM25 score, which the index alone fixes (the term's idf, its
   * frequency, the document's length), in a table of 8 bytes a posting made at the first search,
   * so that a search multiplies instead of working it out: for a small index searched on every
   * request (the classics' passages), not for a large one whose memory counts (the atlas).
   */
  scoreTable?: boolean;
}

export interface TextSearchOptions {
  /** Multiplies the scores of a field (default 1). */
  boost?: Readonly<Record<string, number>>;
  /** A weight per query term (MiniSearch's boostTerm). */
  boostTerm?: (term: string) => number;
  /** Only documents for which this is true are returned. */
  filter?: (id: string) => boolean;
}

/** A query term with the index terms it stands for (itself, prefix or fuzzy expansions), each weighted. */
export interface QueryTerm {
  expansions: readonly { term: string; weight: number }[];
  /** How often the query repeats it. */
  times: number;
  /** Multiplies all its scores (MiniSearch's boostTerm). */
  boost: number;
}

export interface TextHit {
  id: string;
  score: number;
}

/** Marks a serialized index ("TXI" and a format number); stored indexes made under another are not opened. */
export const TEXT_INDEX_FORMAT = 0x54584901;
const MAGIC = TEXT_INDEX_FORMAT;

export class TextIndex {
  private readonly ids: string[] = [];
  /** Per field: each document's number of distinct terms. */
  private readonly lengths: ArrayLike<number>[];
  private readonly averageLengths: number[];
  private readonly postings: FieldPostings[] = [];
  /** Document ordinals of every posting, field after field, each term's documents in order. */
  private docs: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  /** Texts are bounded (at most a few thousand characters), so a frequency fits in 16 bits. */
  private freqs: Uint16Array<ArrayBufferLike> = new Uint16Array(0);
  /** Per-document scratch for search: a search runs start to finish without yielding, so one set is enough. */
  private scratch: { total: Float64Array; term: Float64Array; matched: Uint16Array; lastTerm: Uint32Array; touched: Uint32Array; touchedByTerm: Uint32Array } | undefined;
  /** Per field, each document's length part of the BM25 denominator, K * (1 - B + B * length / average); made at the first search. */
  private norms: Float64Array[] | undefined;
  /** With `scoreTable`: each posting's idf * (D + tf * (K + 1) / (tf + norm)), in posting order; made at the first search. */
  private table: Float64Array | undefined;

  private constructor(
    private readonly fields: readonly string[],
    private readonly tokenize: (text: string) => string[],
    private readonly scoreTable = false,
  ) {
    this.lengths = fields.map(() => []);
    this.averageLengths = fields.map(() => 0);
  }

  /** Indexes the documents in order, yielding now and then (`if (tick()) yield`) so a caller can slice the work. */
  static *build<T>(documents: Iterable<T>, options: TextIndexOptions<T>, tick: () => boolean): Generator<void, TextIndex, void> {
    const index = new TextIndex(options.fields, options.tokenize, options.scoreTable);
    const building = options.fields.map(() => new Map<string, number[]>());
    let total = 0;
    for (const doc of documents) {
      const ordinal = index.ids.length;
      index.ids.push(options.id(doc));
      for (const [f, field] of options.fields.entries()) {
        const text = options.extract(doc, field);
        if (text == null) continue;
        const counts = new Map<string, number>();
        for (const term of options.tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
        (index.lengths[f] as number[])[ordinal] = counts.size;
        // A running average, computed as MiniSearch computes it, so scores agree to the last bit.
        index.averageLengths[f] = (index.averageLengths[f]! * ordinal + counts.size) / (ordinal + 1);
        for (const [term, freq] of counts) {
          const list = building[f]!.get(term);
          if (list) list.push(ordinal, freq);
          else building[f]!.set(term, [ordinal, freq]);
        }
        total += counts.size;
      }
      if (tick()) yield;
    }
    index.docs = new Uint32Array(total);
    index.freqs = new Uint16Array(total);
    let at = 0;
    for (const terms of building) {
      const slots = new Map<string, number>();
      const offsets = new Uint32Array(terms.size + 1);
      for (const [term, pairs] of terms) {
        offsets[slots.size] = at;
        slots.set(term, slots.size);
        for (let i = 0; i < pairs.length; i += 2) {
          index.docs[at] = pairs[i]!;
          index.freqs[at++] = pairs[i + 1]!;
        }
        if (tick()) yield;
      }
      offsets[slots.size] = at;
      index.postings.push({ slots, offsets });
    }
    return index;
  }

  /**
   * The index as one buffer, to be opened with `deserialize` instead of rebuilt (a compiled atlas
   * pack keeps its indexes this way). Layout, little-endian: magic, header length, a JSON header
   * (fields, ids, average lengths, each field's terms in slot order), then 32-bit document
   * lengths per field, 32-bit offsets per field, the document ordinals, the 16-bit frequencies.
   */
  serialize(): Buffer {
    const terms = this.postings.map((p) => [...p.slots.keys()]);
    const header = Buffer.from(JSON.stringify({ fields: this.fields, ids: this.ids, averageLengths: this.averageLengths, terms }), 'utf8');
    const headerBytes = Math.ceil(header.length / 4) * 4;
    const n = this.ids.length;
    const total = this.docs.length;
    const offsetsLength = terms.reduce((sum, t) => sum + t.length + 1, 0);
    const out = Buffer.alloc(8 + headerBytes + 4 * (this.fields.length * n + offsetsLength + total) + 2 * total);
    out.writeUInt32LE(MAGIC, 0);
    out.writeUInt32LE(header.length, 4);
    header.copy(out, 8);
    const words = new Uint32Array(out.buffer, out.byteOffset + 8 + headerBytes, this.fields.length * n + offsetsLength + total);
    let at = 0;
    for (const lengths of this.lengths) {
      for (let i = 0; i < n; i++) words[at++] = lengths[i] ?? 0;
    }
    for (const p of this.postings) {
      words.set(p.offsets, at);
      at += p.offsets.length;
    }
    words.set(this.docs, at);
    new Uint16Array(out.buffer, words.byteOffset + words.byteLength, total).set(this.freqs);
    return out;
  }

  /** Opens what `serialize` wrote; the arrays are views into the buffer, not copies. Throws on a buffer it did not write. */
  static deserialize(buffer: Uint8Array, tokenize: (text: string) => string[]): TextIndex {
    // Typed-array views need 4-byte alignment; a pooled small buffer may not have it.
    const bytes = buffer.byteOffset % 4 === 0 ? buffer : new Uint8Array(buffer);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < 8 || view.getUint32(0, true) !== MAGIC) throw new Error('not a serialized text index');
    const headerLength = view.getUint32(4, true);
    const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 8, headerLength).toString('utf8')) as {
      fields: string[];
      ids: string[];
      averageLengths: number[];
      terms: string[][];
    };
    const n = header.ids.length;
    const offsetsLength = header.terms.reduce((sum, t) => sum + t.length + 1, 0);
    const wordsStart = bytes.byteOffset + 8 + Math.ceil(headerLength / 4) * 4;
    const fixedWords = header.fields.length * n + offsetsLength;
    const total = (bytes.byteLength - (wordsStart - bytes.byteOffset) - 4 * fixedWords) / 6;
    if (!Number.isInteger(total) || total < 0) throw new Error('serialized text index has the wrong size');
    const words = new Uint32Array(bytes.buffer, wordsStart, fixedWords + total);
    const index = new TextIndex(header.fields, tokenize);
    for (const id of header.ids) index.ids.push(id);
    let at = 0;
    for (let f = 0; f < header.fields.length; f++) {
      index.lengths[f] = words.subarray(at, at + n);
      index.averageLengths[f] = header.averageLengths[f]!;
      at += n;
    }
    for (const terms of header.terms) {
      const slots = new Map<string, number>();
      for (const term of terms) slots.set(term, slots.size);
      index.postings.push({ slots, offsets: words.subarray(at, at + terms.length + 1) });
      at += terms.length + 1;
    }
    index.docs = words.subarray(at);
    index.freqs = new Uint16Array(bytes.buffer, wordsStart + 4 * (fixedWords + total), total);
    return index;
  }

  /** The tokenizer the index was built with. */
  get tokenizer(): (text: string) => string[] {
    return this.tokenize;
  }

  get documentCount(): number {
    return this.ids.length;
  }

  /**
   * Calls `visit` with the id and score of each document matching at least one query term
   * (documents the filter rejects are skipped), in the order they were first matched.
   */
  search(query: string, visit: (id: string, score: number, ordinal: number) => void, options: TextSearchOptions = {}): void {
    this.searchTerms(this.queryTerms(query, options.boostTerm), visit, options);
  }

  /** The query's distinct terms in query order, each with how often the query repeats it. */
  private queryTerms(query: string, boostTerm: TextSearchOptions['boostTerm']): QueryTerm[] {
    const repeats = new Map<string, number>();
    for (const t of this.tokenize(query)) repeats.set(t, (repeats.get(t) ?? 0) + 1);
    const specs: QueryTerm[] = [];
    for (const [term, times] of repeats) specs.push({ expansions: [{ term, weight: 1 }], times, boost: boostTerm?.(term) ?? 1 });
    return specs;
  }

  /**
   * `search` for query terms already worked out, each with the index terms it stands for (a
   * caller's prefix or fuzzy expansions, each with its weight). A query term scores as
   * MiniSearch scores one: the sum over its expansions and fields; a document's score is the
   * sum over query terms times the number of query terms it matched. `boostTerm` is not used
   * here: each query term carries its boost.
   */
  searchTerms(
    queryTerms: readonly QueryTerm[],
    visit: (id: string, score: number, ordinal: number) => void,
    options: Omit<TextSearchOptions, 'boostTerm'> = {},
  ): void {
    const { ordinals, scores } = this.scored(queryTerms, options);
    for (let i = 0; i < ordinals.length; i++) visit(this.ids[ordinals[i]!]!, scores[i]!, ordinals[i]!);
  }

  /** `searchTerms` as two arrays, ordinals and scores, in the order first matched: for a caller that works by ordinal. */
  matchTerms(queryTerms: readonly QueryTerm[], options: Omit<TextSearchOptions, 'boostTerm'> = {}): { ordinals: number[]; scores: number[] } {
    return this.scored(queryTerms, options);
  }

  /** Whether a document's field has the term: a search in the term's postings, which are in document order. */
  holds(ordinal: number, field: string, term: string): boolean {
    const postings = this.postings[this.fields.indexOf(field)];
    const slot = postings?.slots.get(term);
    if (slot === undefined) return false;
    let lo = postings!.offsets[slot]!;
    let hi = postings!.offsets[slot + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.docs[mid]! < ordinal) lo = mid + 1;
      else hi = mid;
    }
    return lo < postings!.offsets[slot + 1]! && this.docs[lo] === ordinal;
  }

  /** The id of the document at an ordinal (its position in the order indexed). */
  idAt(ordinal: number): string {
    return this.ids[ordinal]!;
  }

  /**
   * The matching documents' ordinals and scores, in the order first matched (filter applied).
   * The scoring loop calls no callback: a visitor made afresh per search (a closure) would send
   * V8 through a deoptimization of the whole loop at every call.
   */
  private scored(queryTerms: readonly QueryTerm[], options: Omit<TextSearchOptions, 'boostTerm'>): { ordinals: number[]; scores: number[] } {
    const n = this.ids.length;
    // A document enters each list at most once per search (touched) or per query term (touchedByTerm), so n places are enough.
    const scratch = (this.scratch ??= {
      total: new Float64Array(n),
      term: new Float64Array(n),
      matched: new Uint16Array(n),
      lastTerm: new Uint32Array(n),
      touched: new Uint32Array(n),
      touchedByTerm: new Uint32Array(n),
    });
    const { total, term: termScore, matched, lastTerm, touched, touchedByTerm } = scratch;
    const { docs, freqs, fields, postings } = this;
    const norms = (this.norms ??= fields.map((_, f) => {
      const lengths = this.lengths[f]!;
      const average = this.averageLengths[f]!;
      const out = new Float64Array(n);
      for (let doc = 0; doc < n; doc++) out[doc] = K * (1 - B + (B * (lengths[doc] ?? 0)) / average);
      return out;
    }));
    const table = this.scoreTable ? (this.table ??= this.scores(norms)) : undefined;
    const fieldBoosts = fields.map((field) => options.boost?.[field] || 1);
    let touchedCount = 0;
    let ordinal = 0;
    for (const { expansions, times, boost } of queryTerms) {
      ordinal++;
      let termCount = 0;
      for (const { term: t, weight } of expansions) {
        for (let f = 0; f < fields.length; f++) {
          const { slots, offsets } = postings[f]!;
          const slot = slots.get(t);
          if (slot === undefined) continue;
          const fieldWeight = weight * boost * fieldBoosts[f]!;
          const norm = norms[f]!;
          const start = offsets[slot]!;
          const end = offsets[slot + 1]!;
          const df = end - start;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          // Two copies of one loop: a test of `table` inside it cost as much as the rest of the
          // loop. The score is the same product either way; the table holds the parenthesis.
          if (table) {
            for (let i = start; i < end; i++) {
              const doc = docs[i]!;
              if (lastTerm[doc] !== ordinal) {
                // A document's first posting of all is its first of this term.
                if (matched[doc] === 0) touched[touchedCount++] = doc;
                lastTerm[doc] = ordinal;
                touchedByTerm[termCount++] = doc;
                matched[doc]! += 1;
              }
              termScore[doc]! += fieldWeight * table[i]!;
            }
          } else {
            for (let i = start; i < end; i++) {
              const doc = docs[i]!;
              const tf = freqs[i]!;
              if (lastTerm[doc] !== ordinal) {
                if (matched[doc] === 0) touched[touchedCount++] = doc;
                lastTerm[doc] = ordinal;
                touchedByTerm[termCount++] = doc;
                matched[doc]! += 1;
              }
              termScore[doc]! += fieldWeight * (idf * (D + (tf * (K + 1)) / (tf + norm[doc]!)));
            }
          }
        }
      }
      for (let j = 0; j < termCount; j++) {
        const doc = touchedByTerm[j]!;
        for (let r = 0; r < times; r++) total[doc]! += termScore[doc]!;
        termScore[doc] = 0;
      }
    }
    const ordinals: number[] = [];
    const scores: number[] = [];
    const { filter } = options;
    for (let j = 0; j < touchedCount; j++) {
      const doc = touched[j]!;
      if (!filter || filter(this.ids[doc]!)) {
        ordinals.push(doc);
        scores.push(total[doc]! * matched[doc]!);
      }
      total[doc] = 0;
      matched[doc] = 0;
      lastTerm[doc] = 0;
    }
    return { ordinals, scores };
  }

  /** The score table (see `scoreTable`): the loop of `scored` with the query's weights left out. */
  private scores(norms: Float64Array[]): Float64Array {
    const n = this.ids.length;
    const out = new Float64Array(this.docs.length);
    for (let f = 0; f < this.fields.length; f++) {
      const { offsets } = this.postings[f]!;
      const norm = norms[f]!;
      for (let slot = 0; slot + 1 < offsets.length; slot++) {
        const start = offsets[slot]!;
        const end = offsets[slot + 1]!;
        const df = end - start;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let i = start; i < end; i++) {
          const tf = this.freqs[i]!;
          out[i] = idf * (D + (tf * (K + 1)) / (tf + norm[this.docs[i]!]!));
        }
      }
    }
    return out;
  }

  /** Every term in the index, each once, in no particular order. */
  *terms(): Generator<string> {
    const seen = new Set<string>();
    for (const { slots } of this.postings) {
      for (const term of slots.keys()) {
        if (seen.has(term)) continue;
        seen.add(term);
        yield term;
      }
    }
  }

  /** The matching documents, best first (ties in the order first matched). */
  ranked(query: string, options: TextSearchOptions = {}): TextHit[] {
    const hits: TextHit[] = [];
    this.search(query, (id, score) => hits.push({ id, score }), options);
    return hits.sort((a, b) => b.score - a.score);
  }

  /**
   * The matching documents' positions (in the order the documents were indexed) and scores, in
   * the order first matched: for a caller that wants only the best few of some of them, which
   * costs far less than sorting every match.
   */
  matches(query: string, options: TextSearchOptions = {}): { ordinals: number[]; scores: number[] } {
    return this.scored(this.queryTerms(query, options.boostTerm), options);
  }

  /** `ranked`, each hit by its document's position in the order the documents were indexed. */
  rankedOrdinals(query: string, options: TextSearchOptions = {}): { ordinal: number; score: number }[] {
    const { ordinals, scores } = this.scored(this.queryTerms(query, options.boostTerm), options);
    const hits = ordinals.map((ordinal, i) => ({ ordinal, score: scores[i]! }));
    return hits.sort((a, b) => b.score - a.score);
  }
}

export interface ExpansionOptions {
  /** Whether a query term also matches the index terms it is a proper prefix of. */
  prefix?: (term: string) => boolean;
  /** How many edits away an index term may be and still match a query term (false: none). */
  fuzzy?: (term: string) => number | false;
  /** A weight per query term (MiniSearch's boostTerm). */
  boostTerm?: (term: string) => number;
}

/** MiniSearch's weights for prefix and fuzzy expansions. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;

/**
 * A TextIndex with prefix and fuzzy matching: every term of the index is kept in MiniSearch's
 * term tree (its SearchableMap), which finds the index terms a query term is a prefix of, and
 * in a FuzzyTerms index, which finds those within the allowed edits (the set the tree's own
 * fuzzy search finds, several times faster); scoring stays on the typed arrays. Expansions and
 * their weights are MiniSearch's: a proper prefix match weighs 0.375 * t / (t + 0.3 * d) and a
 * fuzzy match (not also a prefix match) 0.45 * t / (t + d), for a matched term of length t at
 * distance d. Tests hold it to MiniSearch's scores.
 */
export class ExpandingIndex {
  /** For prefix matching. */
  private readonly vocabulary = new SearchableMap<true>();
  /** For fuzzy matching: the same terms by the character pairs they hold (see FuzzyTerms). */
  private fuzzy!: FuzzyTerms;

  private constructor(readonly index: TextIndex) {}

  /** Fills the term tree and the fuzzy index from the index, yielding now and then (`if (tick()) yield`). */
  static *over(index: TextIndex, tick: () => boolean): Generator<void, ExpandingIndex, void> {
    const expanding = new ExpandingIndex(index);
    for (const term of index.terms()) {
      expanding.vocabulary.set(term, true);
      if (tick()) yield;
    }
    expanding.fuzzy = yield* FuzzyTerms.build(index.terms(), tick);
    return expanding;
  }

  /** The query's distinct terms, each with its expansions: itself (weight 1), then prefix, then fuzzy matches. */
  queryTerms(query: string, options: ExpansionOptions = {}): QueryTerm[] {
    const repeats = new Map<string, number>();
    for (const t of this.index.tokenizer(query)) repeats.set(t, (repeats.get(t) ?? 0) + 1);
    const terms: QueryTerm[] = [];
    for (const [t, times] of repeats) {
      const expansions = [{ term: t, weight: 1 }];
      const prefixed = new Set<string>();
      if (options.prefix?.(t)) {
        for (const term of this.vocabulary.atPrefix(t).keys()) {
          const distance = term.length - t.length;
          if (distance === 0) continue;
          prefixed.add(term);
          expansions.push({ term, weight: (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance) });
        }
      }
      const edits = options.fuzzy?.(t);
      if (edits) {
        for (const [term, distance] of this.fuzzy.within(t, edits)) {
          if (distance === 0 || prefixed.has(term)) continue;
          expansions.push({ term, weight: (FUZZY_WEIGHT * term.length) / (term.length + distance) });
        }
      }
      terms.push({ expansions, times, boost: options.boostTerm?.(t) ?? 1 });
    }
    return terms;
  }

  search(query: string, visit: (id: string, score: number) => void, options: TextSearchOptions & ExpansionOptions = {}): void {
    this.index.searchTerms(this.queryTerms(query, options), visit, options);
  }

  ranked(query: string, options: TextSearchOptions & ExpansionOptions = {}): TextHit[] {
    const hits: TextHit[] = [];
    this.search(query, (id, score) => hits.push({ id, score }), options);
    return hits.sort((a, b) => b.score - a.score);
  }
}
