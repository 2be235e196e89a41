import fc from 'fast-check';
import SearchableMap from 'minisearch/SearchableMap';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPackSync } from '../../src/atlas/pack.js';
import { tokenize } from '../../src/atlas/search.js';
import { boundedDistance, FuzzyTerms } from '../../src/platform/fuzzy-terms.js';

function build(terms: Iterable<string>): FuzzyTerms {
  const steps = FuzzyTerms.build(terms, () => true);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The full edit-distance table, no band, no early exit. */
function levenshtein(a: string, b: string): number {
  let row = Array.from({ length: a.length + 1 }, (_, j) => j);
  for (let i = 1; i <= b.length; i++) {
    const next = [i];
    for (let j = 1; j <= a.length; j++) next[j] = Math.min(row[j - 1]! + (a[j - 1] === b[i - 1] ? 0 : 1), row[j]! + 1, next[j - 1]! + 1);
    row = next;
  }
  return row[a.length]!;
}

/** What MiniSearch's term tree finds for the same query, as [term, distance] sorted by term. */
function treeFinds(tree: SearchableMap<true>, query: string, maxEdits: number): [string, number][] {
  return [...tree.fuzzyGet(query, maxEdits)].map(([term, [, distance]]) => [term, distance] as [string, number]).sort(byTerm);
}

const byTerm = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function treeOf(terms: Iterable<string>): SearchableMap<true> {
  const tree = new SearchableMap<true>();
  for (const t of terms) tree.set(t, true);
  return tree;
}

describe('fuzzy terms', () => {
  it('computes the edit distance whenever it is within the bound, and only then', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '中', '😀'), maxLength: 12 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '中', '😀'), maxLength: 12 }), fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const exact = levenshtein(a, b);
        const bounded = boundedDistance(a, b, max);
        if (exact <= max) expect(bounded).toBe(exact);
        else expect(bounded).toBeGreaterThan(max);
      }),
      { numRuns: 2_000 },
    );
  });

  it('finds the same terms at the same distances as MiniSearch, over a small alphabet with many near terms and repeated pairs', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'n', 'o', 'ö'), minLength: 1, maxLength: 11 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 120 }), fc.array(word, { minLength: 1, maxLength: 10 }), fc.integer({ min: 0, max: 3 }), (vocabulary, queries, maxEdits) => {
        const fuzzy = build(vocabulary);
        const tree = treeOf(vocabulary);
        expect(fuzzy.size).toBe(vocabulary.length);
        for (const q of [...queries, ...vocabulary.slice(0, 5)]) {
          const got = fuzzy.within(q, maxEdits);
          expect([...got].sort(byTerm), `${q} within ${maxEdits}`).toEqual(treeFinds(tree, q, maxEdits));
          // Shortest terms first.
          for (let i = 1; i < got.length; i++) expect(got[i]![0].length).toBeGreaterThanOrEqual(got[i - 1]![0].length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds what MiniSearch finds over the atlas names, for misspelt, cut and lengthened names', () => {
    const loaded = loadPackSync(fileURLToPath(new URL('../../packs/atlas/design-history', import.meta.url)), 'design-history');
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const vocabulary = new Set<string>();
    for (const e of loaded.pack.entities.values()) for (const t of tokenize([e.displayName, ...e.aliases, e.slug].join(' '))) vocabulary.add(t);
    const fuzzy = build(vocabulary);
    const tree = treeOf(vocabulary);
    const words = [...vocabulary].filter((_, i) => i % 20 === 0);
    const queries = words.flatMap((w) => [w, w.replace(/[aeiou]/, 'x'), w.slice(1), `${w}s`, w.replace(/(.)(.)/, '$2$1'), w.replace(/[aeiou]/g, '')]);
    let found = 0;
    for (const q of queries) {
      for (const maxEdits of [1, 2]) {
        const got = fuzzy.within(q, maxEdits);
        expect([...got].sort(byTerm), `${q} within ${maxEdits}`).toEqual(treeFinds(tree, q, maxEdits));
        found += got.length;
      }
    }
    expect(vocabulary.size).toBeGreaterThan(2_000);
    expect(found).toBeGreaterThan(queries.length);
  });

  it('answers for a query too short for the pairs to narrow the search, and for an empty vocabulary', () => {
    const fuzzy = build(['ab', 'abc', 'b', 'xyz', 'abcd']);
    expect(fuzzy.within('a', 1).sort(byTerm)).toEqual([
      ['ab', 1],
      ['b', 1],
    ]);
    expect(fuzzy.within('', 1)).toEqual([['b', 1]]);
    expect(fuzzy.within('abc', 0)).toEqual([['abc', 0]]);
    expect(build([]).within('anything', 2)).toEqual([]);
  });
});
