import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringTrie } from '../../src/platform/string-trie.js';

/** Every occurrence of every string, by indexOf: what the trie must find. */
function naive(strings: string[], text: string): [number, number][] {
  const out: [number, number][] = [];
  strings.forEach((s, id) => {
    for (let at = text.indexOf(s); at >= 0; at = text.indexOf(s, at + 1)) out.push([id, at]);
  });
  return out;
}

const found = (trie: StringTrie, text: string) => {
  const out: [number, number][] = [];
  trie.forEachMatch(text, (id, at) => out.push([id, at]));
  return out;
};
const sorted = (pairs: [number, number][]) => [...pairs].sort((a, b) => a[1] - b[1] || a[0] - b[0]);

describe('StringTrie', () => {
  it('finds every occurrence, overlapping ones too, shorter strings first at a position', () => {
    const trie = new StringTrie();
    ['he', 'she', 'hers', '知行', '知行合一', '😀'].forEach((s, id) => trie.add(s, id));
    expect(found(trie, 'ushers 知行合一 😀')).toEqual([
      [1, 1],
      [0, 2],
      [2, 2],
      [3, 7],
      [4, 7],
      [5, 12],
    ]);
  });

  it('agrees with indexOf on random strings and texts, strings added before and after a search', () => {
    const unit = fc.constantFrom('a', 'b', 'c', '中', '文', '\ud83d', '\ude00');
    const word = fc.string({ unit, minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 12 }), fc.array(word, { maxLength: 4 }), fc.string({ unit, maxLength: 30 }), (first, later, text) => {
        const trie = new StringTrie();
        first.forEach((s, id) => trie.add(s, id));
        expect(sorted(found(trie, text))).toEqual(sorted(naive(first, text)));
        later.forEach((s, i) => trie.add(s, first.length + i));
        expect(sorted(found(trie, text))).toEqual(sorted(naive([...first, ...later], text)));
      }),
      { numRuns: 1500, seed: 11 },
    );
  });

  it('refuses the empty string, which would occur everywhere', () => {
    expect(() => new StringTrie().add('', 0)).toThrow(/empty/);
  });
});
