import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { synthesizePack } from '../../scripts/atlas-synth.js';
import { loadPackSync, type Entity } from '../../src/atlas/pack.js';
import { fuzzyDistance, tokenize } from '../../src/atlas/search.js';
import { openLibrary } from '../../src/classics/library.js';
import { PASSAGE_BOOST, PASSAGE_INDEX } from '../../src/classics/retrieval.js';
import { ExpandingIndex, TextIndex, type ExpansionOptions, type TextIndexOptions, type TextSearchOptions } from '../../src/platform/text-index.js';

const unigramsHalf = (term: string) => (/\p{Script=Han}/u.test(term) && Array.from(term).length === 1 ? 0.5 : 1);

function runToEnd<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

function buildIndex<T>(docs: Iterable<T>, options: TextIndexOptions<T>): TextIndex {
  let tick = 0;
  return runToEnd(TextIndex.build(docs, options, () => ++tick % 50 === 0));
}

/**
 * Holds the index to MiniSearch over the same documents with exact term matching: the same
 * documents, in the same order (ties in first-matched order), with the same scores.
 */
function agree<T extends { id: string }>(docs: T[], options: TextIndexOptions<T>, queries: string[], search: TextSearchOptions = {}) {
  const index = buildIndex(docs, options);
  const engine = new MiniSearch<T>({
    idField: 'id',
    fields: [...options.fields],
    storeFields: [],
    tokenize: options.tokenize,
    processTerm: (t) => t,
    extractField: (doc, field) => (field === 'id' ? options.id(doc) : (options.extract(doc, field) as string)),
  });
  engine.addAll(docs);
  let compared = 0;
  for (const q of queries) {
    const filter = search.filter;
    const want = engine.search(q, { boost: search.boost, boostTerm: search.boostTerm, filter: filter && ((r) => filter(String(r.id))) });
    const got = index.ranked(q, search);
    expect(
      got.map((h) => h.id),
      q,
    ).toEqual(want.map((r) => String(r.id)));
    got.forEach((h, i) => expect(h.score, `${q} / ${h.id}`).toBeCloseTo(want[i]!.score, 10));
    // The unsorted matches are the same documents and scores, in the order first matched.
    const { ordinals, scores } = index.matches(q, search);
    const sorted = ordinals.map((ordinal, i) => ({ ordinal, score: scores[i]! })).sort((a, b) => b.score - a.score);
    expect(sorted, q).toEqual(index.rankedOrdinals(q, search));
    compared += want.length;
  }
  return compared;
}

const description: TextIndexOptions<Entity> = { fields: ['description'], extract: (e) => e.description, id: (e) => e.id, tokenize };

describe('text index', () => {
  it('ranks atlas descriptions exactly as MiniSearch does (design-history pack)', () => {
    const loaded = loadPackSync(fileURLToPath(new URL('../../packs/atlas/design-history', import.meta.url)), 'design-history');
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const entities = [...loaded.pack.entities.values()].filter((e) => e.description);
    // Words and CJK runs drawn from the pack's own descriptions, single and combined, repeated terms included.
    const words = entities.flatMap((e) => e.description.split(/\s+/).slice(0, 3)).filter(Boolean);
    const queries = [...words.slice(0, 300), ...words.slice(0, 200).map((w, i) => `${w} ${words[i + 7]} ${w}`), '设计 学校', '包豪斯', 'chair chair', 'the of and'];
    expect(agree(entities, description, queries, { boost: { description: 0.6 }, boostTerm: unigramsHalf })).toBeGreaterThan(10_000);
  });

  it('ranks atlas descriptions exactly as MiniSearch does on a synthetic pack, with a filter', () => {
    const entities = synthesizePack({ entities: 3000, seed: 7 }).entities.filter((e) => e.description);
    const queries = entities.slice(0, 150).map((e) => e.description.split(' ').slice(2, 5).join(' '));
    const people = (id: string) => id.startsWith('person.');
    expect(agree(entities, description, queries, { boost: { description: 0.6 }, boostTerm: unigramsHalf, filter: people })).toBeGreaterThan(100);
  });

  it('ranks the classics passages over four boosted fields exactly as MiniSearch does', () => {
    const lib = openLibrary(fileURLToPath(new URL('../../packs', import.meta.url)));
    const passages = [...lib.retrieval.indexedPassages];
    const queries = [
      '上善若水',
      '学而时习之 不亦说乎',
      '知行合一 良知',
      '应无所住而生其心',
      'water virtue weakness',
      'filial piety parents',
      '天行健 君子以自强不息 自强',
      '之 不 而',
      'wu wei 无为 无为',
      ...passages.slice(0, 120).map((p) => Array.from(p.zh).slice(0, 6).join('')),
      ...passages.slice(0, 60).map((p) => p.en.split(' ').slice(0, 4).join(' ')),
    ];
    expect(agree(passages, PASSAGE_INDEX, queries, { boost: PASSAGE_BOOST })).toBeGreaterThan(20_000);
  });

  it('skips missing fields, finds nothing for unknown terms, and clears its scratch between searches', () => {
    const docs = [
      { id: 'a', text: null },
      { id: 'b', text: 'steel chair' },
    ];
    const index = buildIndex(docs, { fields: ['text'], extract: (d) => d.text, id: (d) => d.id, tokenize });
    expect(index.documentCount).toBe(2);
    expect(index.ranked('steel').map((h) => h.id)).toEqual(['b']);
    expect(index.ranked('wood')).toEqual([]);
    expect(index.ranked('steel steel chair')).toEqual(index.ranked('steel steel chair'));
  });

  it('opens a serialized index that answers exactly as the one it was written from', () => {
    const loaded = loadPackSync(fileURLToPath(new URL('../../packs/atlas/design-history', import.meta.url)), 'design-history');
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    // Two fields, one of them missing for some documents, and CJK text: every part of the layout is used.
    const twoFields: TextIndexOptions<Entity> = { fields: ['description', 'aliases'], extract: (e, f) => (f === 'aliases' ? (e.aliases.length ? e.aliases.join(' ') : null) : e.description), id: (e) => e.id, tokenize };
    const built = buildIndex(loaded.pack.entities.values(), twoFields);
    const bytes = built.serialize();
    // At an odd offset, as a slice of a larger file would be.
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    const opened = TextIndex.deserialize(shifted, tokenize);
    expect(opened.documentCount).toBe(built.documentCount);
    const queries = ['chair', 'Bauhaus school', '包豪斯', '设计 学校', 'steel steel tube', 'nothing-like-this', 'Ulm'];
    const options = { boost: { description: 0.6, aliases: 2 }, boostTerm: unigramsHalf };
    let hits = 0;
    for (const q of queries) {
      const want = built.ranked(q, options);
      expect(opened.ranked(q, options), q).toEqual(want);
      hits += want.length;
    }
    expect(hits).toBeGreaterThan(50);
    expect(() => TextIndex.deserialize(Buffer.from('not an index at all'), tokenize)).toThrow(/not a serialized text index/);
    expect(() => TextIndex.deserialize(bytes.subarray(0, bytes.length - 3), tokenize)).toThrow(/wrong size/);
  });

  it('with prefix and fuzzy expansion, scores atlas names exactly as MiniSearch does', () => {
    const loaded = loadPackSync(fileURLToPath(new URL('../../packs/atlas/design-history', import.meta.url)), 'design-history');
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const synthetic = synthesizePack({ entities: 2000, seed: 11 }).entities;
    const fields = ['displayName', 'aliases', 'slug'];
    const extract = (e: Entity, f: string) => (f === 'aliases' ? e.aliases.join(' \n ') : f === 'slug' ? e.slug : e.displayName);
    const expansion: ExpansionOptions = { prefix: (t) => t.length >= 3 && !/\p{Script=Han}/u.test(t), fuzzy: fuzzyDistance, boostTerm: unigramsHalf };
    const boost = { displayName: 4, aliases: 3, slug: 3.5 };
    let compared = 0;
    for (const entities of [[...loaded.pack.entities.values()], synthetic]) {
      const index = runToEnd(ExpandingIndex.over(buildIndex(entities, { fields, extract, id: (e) => e.id, tokenize }), () => false));
      const engine = new MiniSearch<Entity>({ idField: 'id', fields, storeFields: [], tokenize, processTerm: (t) => t, extractField: (e, f) => (f === 'id' ? e.id : extract(e, f)) });
      engine.addAll(entities);
      // Whole names, their first letters (prefix), one and two letters changed (fuzzy), CJK aliases, several words, repeats.
      const names = entities.slice(0, 80).map((e) => e.displayName);
      const queries = [
        ...names,
        ...names.map((n) => n.slice(0, 4)),
        ...names.map((n) => n.replace(/[aeiou]/, 'x')),
        ...names.map((n) => n.replace(/[aeiou]/g, 'y').slice(0, 12)),
        'bauhaus bauhaus',
        '包豪斯',
        'Rontgen',
        'gropius mies',
      ];
      for (const q of queries) {
        const want = engine.search(q, { boost, prefix: expansion.prefix, fuzzy: expansion.fuzzy, boostTerm: expansion.boostTerm });
        const got = index.ranked(q, { boost, ...expansion });
        expect(new Set(got.map((h) => h.id)), q).toEqual(new Set(want.map((r) => String(r.id))));
        const scores = new Map(got.map((h) => [h.id, h.score]));
        for (const r of want) expect(scores.get(String(r.id)), `${q} / ${r.id}`).toBeCloseTo(r.score, 9);
        compared += want.length;
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });
});
