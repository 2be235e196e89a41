/**
 * The terms of a vocabulary within a few edits of a query term (Levenshtein distance over UTF-16
 * code units: insertions, deletions and substitutions), the same set MiniSearch's term tree
 * finds with `fuzzyGet`, without walking the tree.
 *
 * The tree walk keeps every branch whose start is within the distance of the query's start, and
 * any two characters are within two edits of any other two: a search visits a large part of the
 * tree, most of an atlas search's time. Here candidates come from the character pairs they share
 * with the query instead. Each edit breaks at most two of the query's n - 1 pairs, so a term
 * within k edits has at least n - 1 - 2k of them (Ukkonen's q-gram lemma, pairs counted with
 * their repeats); only terms within k of the query's length are counted, and each candidate is
 * then checked with an edit distance computed in a band of 2k + 1 diagonals.
 */
export class FuzzyTerms {
  /** The terms, shortest first (equal lengths in the order given): a length is a range of ids. */
  private readonly terms: string[] = [];
  /** Terms of length L have the ids from lengthStart[L] to lengthStart[L + 1]. */
  private lengthStart = new Uint32Array(1);
  /** A pair of code units (first * 65536 + second) to its slot in offsets. */
  private readonly pairs = new Map<number, number>();
  /**
   * A pair's terms are ids[offsets[slot]] to ids[offsets[slot + 1]], ascending, a term once for
   * each time it holds the pair (a term's repeats are next to each other).
   */
  private offsets = new Uint32Array(1);
  private ids = new Uint32Array(0);
  /** Per term, the pairs it shares with the query being searched: a search runs to the end without yielding. */
  private shared = new Uint32Array(0);

  private constructor() {}

  /** Indexes the terms (each once), yielding now and then (`if (tick()) yield`) so a caller can slice the work. */
  static *build(vocabulary: Iterable<string>, tick: () => boolean): Generator<void, FuzzyTerms, void> {
    const out = new FuzzyTerms();
    const byLength: string[][] = [];
    for (const term of vocabulary) (byLength[term.length] ??= []).push(term);
    out.lengthStart = new Uint32Array(byLength.length + 1);
    for (let length = 0; length < byLength.length; length++) {
      out.lengthStart[length] = out.terms.length;
      for (const term of byLength[length] ?? []) out.terms.push(term);
    }
    out.lengthStart[byLength.length] = out.terms.length;
    // Two passes: each pair's slot and its number of postings, then the postings in id order.
    const sizes: number[] = [];
    const slotOf: number[] = [];
    for (let id = 0; id < out.terms.length; id++) {
      const term = out.terms[id]!;
      for (let i = 0; i + 1 < term.length; i++) {
        const pair = term.charCodeAt(i) * 65536 + term.charCodeAt(i + 1);
        let slot = out.pairs.get(pair);
        if (slot === undefined) out.pairs.set(pair, (slot = sizes.push(0) - 1));
        sizes[slot]!++;
        slotOf.push(slot);
      }
      if (tick()) yield;
    }
    out.offsets = new Uint32Array(sizes.length + 1);
    for (let slot = 0; slot < sizes.length; slot++) out.offsets[slot + 1] = out.offsets[slot]! + sizes[slot]!;
    out.ids = new Uint32Array(slotOf.length);
    const next = out.offsets.slice(0, sizes.length);
    let at = 0;
    for (let id = 0; id < out.terms.length; id++) {
      for (let i = 0; i + 1 < out.terms[id]!.length; i++) out.ids[next[slotOf[at++]!]!++] = id;
      if (tick()) yield;
    }
    out.shared = new Uint32Array(out.terms.length);
    return out;
  }

  get size(): number {
    return this.terms.length;
  }

  /** Every term within `maxEdits` edits of `query` (the query itself among them, at 0), with its distance; shortest terms first. */
  within(query: string, maxEdits: number): [term: string, distance: number][] {
    const n = query.length;
    const lo = this.lengthStart[Math.min(Math.max(0, n - maxEdits), this.lengthStart.length - 1)]!;
    const hi = this.lengthStart[Math.min(n + maxEdits + 1, this.lengthStart.length - 1)]!;
    const needed = n - 1 - 2 * maxEdits;
    const found: [string, number][] = [];
    const check = (id: number) => {
      const term = this.terms[id]!;
      const distance = boundedDistance(query, term, maxEdits);
      if (distance <= maxEdits) found.push([term, distance]);
    };
    if (needed <= 0) {
      // Too short a query for the pairs to rule anything out: every term of a near length is a candidate.
      for (let id = lo; id < hi; id++) check(id);
      return found;
    }
    const { shared, ids, offsets } = this;
    const touched: number[] = [];
    const queryPairs = new Map<number, number>();
    for (let i = 0; i + 1 < n; i++) {
      const pair = query.charCodeAt(i) * 65536 + query.charCodeAt(i + 1);
      queryPairs.set(pair, (queryPairs.get(pair) ?? 0) + 1);
    }
    for (const [pair, times] of queryPairs) {
      const slot = this.pairs.get(pair);
      if (slot === undefined) continue;
      const end = offsets[slot + 1]!;
      let i = firstAtLeast(ids, offsets[slot]!, end, lo);
      while (i < end) {
        const id = ids[i]!;
        if (id >= hi) break;
        // A pair a term holds several times counts as often as the query holds it too.
        let held = 1;
        while (i + held < end && ids[i + held] === id) held++;
        i += held;
        if (shared[id] === 0) touched.push(id);
        shared[id]! += Math.min(times, held);
      }
    }
    // Most terms touched share a common pair or two and no more: only the rest are sorted and checked.
    const candidates: number[] = [];
    for (const id of touched) {
      if (shared[id]! >= needed) candidates.push(id);
      shared[id] = 0;
    }
    for (const id of Uint32Array.from(candidates).sort()) check(id);
    return found;
  }
}

/** The first place from `from` to `to` whose value is at least `value`, in an ascending run of `list`. */
function firstAtLeast(list: Uint32Array, from: number, to: number, value: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/** The edit distance between a and b when it is at most `max`, otherwise some number above `max`. */
export function boundedDistance(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (previousRow.length < n + 1) {
    previousRow = new Int32Array(2 * (n + 1));
    currentRow = new Int32Array(2 * (n + 1));
  }
  let previous = previousRow;
  let current = currentRow;
  const outside = max + 1;
  for (let j = 0; j <= n; j++) previous[j] = j <= max ? j : outside;
  for (let i = 1; i <= m; i++) {
    // Only cells within max of the diagonal can hold a distance of at most max.
    const from = Math.max(1, i - max);
    const to = Math.min(n, i + max);
    current[from - 1] = from === 1 ? (i <= max ? i : outside) : outside;
    const c = b.charCodeAt(i - 1);
    let best = current[from - 1]!;
    for (let j = from; j <= to; j++) {
      const substitute = previous[j - 1]! + (a.charCodeAt(j - 1) === c ? 0 : 1);
      const remove = (j < i + max ? previous[j]! : outside) + 1;
      const insert = current[j - 1]! + 1;
      const d = Math.min(substitute, remove, insert, outside);
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return outside;
    const swap = previous;
    previous = current;
    current = swap;
  }
  return previous[n]!;
}
