import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { synthesizePack } from '../../scripts/atlas-synth.js';
import { loadPackSync, type Entity } from '../../src/atlas/pack.js';
import { runSync, ticker } from '../../src/atlas/steps.js';
import { tokenize } from '../../src/atlas/search.js';
import { TextIndex, type TextSearchOptions } from '../../src/atlas/text-index.js';

const unigramsHalf = (term: string) => (/\p{Script=Han}/u.test(term) && Array.from(term).length === 1 ? 0.5 : 1);

/** The same field indexed by MiniSearch with exact matching: the reference the text index must agree with. */
function reference(entities: Entity[]) {
  const engine = new MiniSearch<Entity>({ idField: 'id', fields: ['description'], storeFields: [], tokenize: (t) => tokenize(t), processTerm: (t) => t });
  for (const e of entities) if (e.description) engine.add(e);
  return (q: string, filter?: (id: string) => boolean) =>
    new Map(
      engine
        .search(q, { boost: { description: 0.6 }, boostTerm: unigramsHalf, filter: filter && ((r) => filter(String(r.id))) })
        .map((r) => [String(r.id), r.score] as const),
    );
}

function agree(entities: Entity[], queries: string[], filter?: (id: string) => boolean) {
  const index = runSync(TextIndex.build(entities.map((e) => [e.id, e.description] as const), tokenize, ticker()));
  const expected = reference(entities);
  let compared = 0;
  for (const q of queries) {
    const want = expected(q, filter);
    const got = hits(index, q, { boost: 0.6, boostTerm: unigramsHalf, filter });
    expect([...got.keys()].sort(), q).toEqual([...want.keys()].sort());
    for (const [id, score] of want) expect(got.get(id), `${q} / ${id}`).toBeCloseTo(score, 10);
    compared += want.size;
  }
  return compared;
}

function hits(index: TextIndex, q: string, options?: TextSearchOptions) {
  const out = new Map<string, number>();
  index.search(q, (id, score) => out.set(id, score), options);
  return out;
}

describe('description index', () => {
  it('scores exactly as MiniSearch does on the design-history pack', () => {
    const loaded = loadPackSync(fileURLToPath(new URL('../../packs/atlas/design-history', import.meta.url)), 'design-history');
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const entities = [...loaded.pack.entities.values()];
    // Words and CJK runs drawn from the pack's own descriptions, single and combined, repeated terms included.
    const words = entities.flatMap((e) => e.description.split(/\s+/).slice(0, 3)).filter(Boolean);
    const queries = [...words.slice(0, 300), ...words.slice(0, 200).map((w, i) => `${w} ${words[i + 7]} ${w}`), '设计 学校', '包豪斯', 'chair chair', 'the of and'];
    expect(agree(entities, queries)).toBeGreaterThan(10_000);
  });

  it('scores exactly as MiniSearch does on a synthetic pack, with a filter', () => {
    const entities = synthesizePack({ entities: 3000, seed: 7 }).entities;
    const queries = entities.slice(0, 150).map((e) => e.description.split(' ').slice(2, 5).join(' '));
    const people = (id: string) => id.startsWith('person.');
    expect(agree(entities, queries, people)).toBeGreaterThan(100);
  });

  it('skips documents without a description and finds nothing for unknown terms', () => {
    const index = runSync(TextIndex.build([['a', ''], ['b', 'steel chair']], tokenize, ticker()));
    expect([...hits(index, 'steel').keys()]).toEqual(['b']);
    expect(hits(index, 'wood').size).toBe(0);
    // Scratch state is cleared between searches: the same search scores the same twice.
    expect(hits(index, 'steel steel chair')).toEqual(hits(index, 'steel steel chair'));
  });
});
