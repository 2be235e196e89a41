import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { synthesizePack } from '../../scripts/atlas-synth.js';
import { validatePack } from '../../src/atlas/pack.js';
import { fuzzyDistance, mapEngineScore, normalize, SearchIndex, tokenize } from '../../src/atlas/search.js';
import { fixturePack } from './helpers.js';

const pack = fixturePack();
const index = SearchIndex.buildSync(pack.entities);
const search = (q: string, more: { scope?: any[]; limit?: number } = {}) => index.search({ q, limit: 20, ...more });

describe('normalisation and tokens', () => {
  it('folds case, diacritics and letters Unicode does not decompose', () => {
    expect(normalize('Wilhelm RÖNTGEN')).toBe('wilhelm rontgen');
    expect(normalize('Jørn Æbelø Straße')).toBe('jorn aebelo strasse');
  });

  it('folds traditional Han characters to simplified', () => {
    expect(normalize('設計')).toBe(normalize('设计'));
    expect(normalize('無障礙')).toBe('无障碍');
  });

  it('keeps kana voicing and Hangul syllables intact', () => {
    expect(normalize('バタフライ')).toBe('バタフライ');
    expect(normalize('한글')).toBe('한글');
  });

  it('allows 0.2 edits per character, rounded down, at most 2, and none for CJK', () => {
    expect(fuzzyDistance('the')).toBe(false);
    expect(fuzzyDistance('grop')).toBe(false);
    expect(fuzzyDistance('rontgn')).toBe(1);
    expect(fuzzyDistance('typography')).toBe(2);
    expect(fuzzyDistance('existenzminimum')).toBe(2);
    expect(fuzzyDistance('柳宗理柳宗理')).toBe(false);
  });

  it('splits CJK into character unigrams and bigrams, Latin into words', () => {
    expect(tokenize('柳宗理 Yanagi')).toEqual(['柳', '柳宗', '宗', '宗理', '理', 'yanagi']);
  });
});

describe('search', () => {
  it('scores an exact alias 1 and ranks it first', () => {
    const hits = search('Model B3');
    expect(hits[0]).toEqual({ id: 'work.wassily-chair', kind: 'work', displayName: 'Wassily Chair', slug: 'wassily-chair', score: 1, matchedField: 'aliases' });
    expect(hits.slice(1).every((h) => h.score < 1)).toBe(true);
  });

  it('names the exact field: id, slug, displayName', () => {
    expect(search('person.marcel-breuer')[0]).toMatchObject({ id: 'person.marcel-breuer', score: 1, matchedField: 'id' });
    expect(search('marcel-breuer')[0]).toMatchObject({ id: 'person.marcel-breuer', score: 1, matchedField: 'slug' });
    expect(search('  marcel   BREUER ')[0]).toMatchObject({ id: 'person.marcel-breuer', score: 1, matchedField: 'displayName' });
  });

  it('never returns an unreleased entity', () => {
    // "Gropius" is Walter Gropius' alias; the internal pupil's alias contains it too but is not released.
    const hits = search('gropius');
    expect(hits[0]).toMatchObject({ id: 'person.walter-gropius', score: 1 });
    expect(hits.map((h) => h.id)).not.toContain('person.hidden-designer');
  });

  it('finds Röntgen for Rontgen and for a typo', () => {
    expect(search('Rontgen')[0]).toMatchObject({ id: 'person.wilhelm-rontgen', matchedField: 'displayName' });
    expect(search('Wilhelm Rontgen')[0]).toMatchObject({ id: 'person.wilhelm-rontgen', score: 1 });
    expect(search('Rontgn')[0]).toMatchObject({ id: 'person.wilhelm-rontgen' });
    expect(search('jorn utzon')[0]).toMatchObject({ id: 'person.jorn-utzon', score: 1 });
  });

  it('finds a CJK alias whole and by part, and katakana', () => {
    expect(search('柳宗理')[0]).toMatchObject({ id: 'person.sori-yanagi', score: 1, matchedField: 'aliases' });
    const partial = search('宗理')[0]!;
    expect(partial).toMatchObject({ id: 'person.sori-yanagi', matchedField: 'aliases' });
    expect(partial.score).toBeLessThan(1);
    expect(search('バタフライ')[0]).toMatchObject({ id: 'work.butterfly-stool', matchedField: 'aliases' });
  });

  it('lets a traditional query find a simplified alias', () => {
    // The alias is written 形式追随功能; 隨 is the traditional form of 随.
    expect(search('形式追隨功能')[0]).toMatchObject({ id: 'concept.form-follows-function', score: 1, matchedField: 'aliases' });
    expect(search('追隨')[0]).toMatchObject({ id: 'concept.form-follows-function' });
  });

  it('does not fuzzy-match CJK: a different character finds nothing', () => {
    expect(search('柳宗')[0]?.id).toBe('person.sori-yanagi');
    expect(search('桜')).toEqual([]);
  });

  it('matches prefixes of Latin words', () => {
    expect(search('wass')[0]).toMatchObject({ id: 'work.wassily-chair' });
  });

  it('breaks ties by displayName then id', () => {
    // Two entities with the alias "Grid", both exact: ordered by displayName.
    expect(search('grid').slice(0, 2).map((h) => [h.id, h.score])).toEqual([
      ['concept.swiss-grid', 1],
      ['concept.typographic-grid', 1],
    ]);
    // Two entities named "Tulip": same score and name, ordered by id.
    expect(search('Tulip').slice(0, 2).map((h) => [h.id, h.score])).toEqual([
      ['concept.tulip', 1],
      ['work.tulip-chair', 1],
    ]);
  });

  it('restricts kinds with scope and honours limit', () => {
    const hits = search('bauhaus', { scope: ['place'] });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.kind === 'place')).toBe(true);
    expect(search('grid', { scope: ['person'] }).every((h) => h.kind === 'person')).toBe(true);
    expect(search('bauhaus', { limit: 1 })).toHaveLength(1);
  });

  it('answers a repeated query as computed, whatever the scope order or the letter case', () => {
    const fresh = SearchIndex.buildSync(pack.entities);
    const first = fresh.search({ q: 'Bauhaus', scope: ['place', 'organization'], limit: 5 });
    expect(first.length).toBeGreaterThan(0);
    expect(fresh.search({ q: 'bauhaus', scope: ['organization', 'place'], limit: 5 })).toEqual(first);
    expect(index.search({ q: 'Bauhaus', scope: ['place', 'organization'], limit: 5 })).toEqual(first);
    // The scope and the limit are part of the query: a cached answer for one never serves the other.
    expect(fresh.search({ q: 'bauhaus', scope: ['place'], limit: 5 }).every((h) => h.kind === 'place')).toBe(true);
    expect(fresh.search({ q: 'bauhaus', limit: 1 })).toHaveLength(1);
    // With the cache off every search is computed, to the same hits.
    const uncached = SearchIndex.buildSync(pack.entities, { searchCacheEntries: 0 });
    expect(uncached.search({ q: 'Bauhaus', scope: ['place', 'organization'], limit: 5 })).toEqual(first);
  });

  it('maps engine scores monotonically below 0.99', () => {
    const samples = [0, 0.01, 0.5, 1, 3, 8, 20, 100, 1e6];
    const mapped = samples.map(mapEngineScore);
    expect(mapped[0]).toBe(0);
    for (let i = 1; i < mapped.length; i++) expect(mapped[i]!).toBeGreaterThanOrEqual(mapped[i - 1]!);
    expect(Math.max(...mapped)).toBeLessThanOrEqual(0.99);
  });
});

describe('search over a synthetic pack (properties)', () => {
  const synthetic = validatePack(synthesizePack({ entities: 1500, seed: 3 }));
  if (!synthetic.ok) throw new Error(synthetic.errors.join('\n'));
  const entities = [...synthetic.pack.entities.values()];
  const big = SearchIndex.buildSync(synthetic.pack.entities);

  it('keeps every score in [0, 1], returns sorted, deterministic hits, and scores 1 exactly for exact matches', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...entities.map((e) => e.displayName)), fc.string({ minLength: 1, maxLength: 30 })), fc.integer({ min: 1, max: 100 }), (q, limit) => {
        const hits = big.search({ q, limit });
        expect(hits.length).toBeLessThanOrEqual(limit);
        for (const [i, h] of hits.entries()) {
          expect(h.score).toBeGreaterThanOrEqual(0);
          expect(h.score).toBeLessThanOrEqual(1);
          const exact = [h.id, h.slug, h.displayName, ...synthetic.pack.entities.get(h.id)!.aliases].some((v) => normalize(v).trim().replace(/\s+/g, ' ') === normalize(q).trim().replace(/\s+/g, ' '));
          expect(h.score === 1).toBe(exact);
          const prev = hits[i - 1];
          if (prev) expect(prev.score > h.score || (prev.score === h.score && (prev.displayName < h.displayName || (prev.displayName === h.displayName && prev.id < h.id)))).toBe(true);
        }
        expect(big.search({ q, limit })).toEqual(hits);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps the best hits of the whole ranking, ties included, at any limit and in any scope', () => {
    const computed = SearchIndex.buildSync(synthetic.pack.entities, { searchCacheEntries: 0 });
    // Words the synthetic names and descriptions share match hundreds of entities, many tied after rounding.
    const words = [...new Set(entities.flatMap((e) => e.displayName.split(' ')))].slice(0, 40);
    const kinds = [...new Set(entities.map((e) => e.kind))];
    fc.assert(
      fc.property(fc.constantFrom(...words), fc.constantFrom(...words), fc.integer({ min: 1, max: 40 }), fc.subarray(kinds, { minLength: 1 }), (a, b, limit, scope) => {
        const q = `${a} ${b}`;
        const all = computed.search({ q, limit: 100_000 });
        expect(all.length).toBeGreaterThan(0);
        expect(computed.search({ q, limit })).toEqual(all.slice(0, limit));
        expect(computed.search({ q, limit, scope })).toEqual(all.filter((h) => scope.includes(h.kind)).slice(0, limit));
      }),
      { numRuns: 60 },
    );
  });

  it('finds every sampled entity first (or tied at 1) by its own id', () => {
    for (const e of entities.filter((_, i) => i % 97 === 0)) {
      const hits = big.search({ q: e.id, limit: 5 });
      expect(hits[0]).toMatchObject({ id: e.id, score: 1, matchedField: 'id' });
    }
  });
});
