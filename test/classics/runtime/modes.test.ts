import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRuntimeApp, RELEASES, RUNTIME, type RuntimeTestApp } from './helpers.js';

let t: RuntimeTestApp;
beforeAll(async () => {
  t = await makeRuntimeApp();
});
afterAll(() => t.close());

const run = (payload: Record<string, unknown>) => t.post(RUNTIME, { productId: 'test-product', ...payload });
const SITUATION = 'I feel drained by my job every day';
const BLOCKED = 'Cast a hexagram for my marriage.';

describe('lookup', () => {
  it('returns a concept with its typed relations, graph neighbourhood, claims and verbatim citations', async () => {
    const { status, body } = await run({ runtimeMode: 'lookup', objectId: 'concept.wuwei' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ runtimeMode: 'lookup', releaseId: RELEASES.served, locale: 'en', abstention: null, object: { type: 'concept', id: 'concept.wuwei', zh: '无为' } });
    expect(body.relations).toContainEqual(expect.objectContaining({ type: 'non_equivalent', target: 'concept.common.idleness', direction: 'outgoing' }));
    expect(body.graph.nodes.map((n: { id: string }) => n.id)).toContain('concept.wuwei');
    expect(body.graph.edges.some((e: { source: string; target: string }) => e.source === 'concept.wuwei' || e.target === 'concept.wuwei')).toBe(true);
    expect(body.claims.length).toBeGreaterThan(0);
    expect(body.claims.every((c: { conceptIds: string[] }) => c.conceptIds.includes('concept.wuwei'))).toBe(true);
    expect(body.misreadings.map((m: { id: string }) => m.id)).toContain('mis.wuwei-laziness');
    expect(body.citations.length).toBeGreaterThan(0);
  });

  it('returns a passage with the claims bound to it, quoting its own text', async () => {
    const { body } = await run({ runtimeMode: 'lookup', objectId: 'ddj.8', locale: 'zh-CN' });
    expect(body.object).toMatchObject({ type: 'passage', locator: 'Daodejing 8', packId: 'daodejing' });
    expect(body.object.text).toContain('上善若水');
    expect(body.locale).toBe('zh');
    expect(body.claims.length).toBeGreaterThan(0);
    for (const c of body.claims) expect(c.evidenceIds).toContain('ddj.8');
    const own = body.citations.filter((c: { evidence_id: string }) => c.evidence_id === 'ddj.8');
    expect(own.length).toBeGreaterThan(0);
    for (const c of own) expect(body.object.text).toContain(c.quote);
    const claimIds = body.claims.map((c: { id: string }) => c.id);
    for (const c of body.citations) expect(claimIds).toContain(c.claim_id);
    expect(body.claims.some((c: { statement: string }) => /[\u4e00-\u9fff]/.test(c.statement))).toBe(true);
  });

  it('answers 400 naming objectId when it is missing, and 404 for an unknown object', async () => {
    const missing = await run({ runtimeMode: 'lookup' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(missing.body.error.message).toMatch(/^body\.objectId: required when runtimeMode is lookup/);
    const unknown = await run({ runtimeMode: 'lookup', objectId: 'concept.nothing-here' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });

  it('honours knowledgePackIds: evidence of other packs is out of scope, an unknown pack is 400', async () => {
    const outside = await run({ runtimeMode: 'lookup', objectId: 'ddj.8', knowledgePackIds: ['analects'] });
    expect(outside.status).toBe(404);
    expect(outside.body.error.message).toMatch(/outside knowledgePackIds/);
    const scoped = await run({ runtimeMode: 'lookup', objectId: 'concept.wuwei', knowledgePackIds: ['analects', 'core'] });
    expect(scoped.status).toBe(200);
    expect(scoped.body.knowledgePackIds).toEqual(['analects', 'core']);
    expect(scoped.body.claims.every((c: { evidenceIds: string[] }) => c.evidenceIds.every((id) => id.startsWith('lunyu.')))).toBe(true);
    expect(scoped.body.graph.nodes.some((n: { id: string }) => n.id.startsWith('ddj.'))).toBe(false);
    const unknown = await run({ runtimeMode: 'lookup', objectId: 'ddj.8', knowledgePackIds: ['astrology'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^body\.knowledgePackIds: unknown pack "astrology"/);
  });

  it('uses the default packs of the product named by productId', async () => {
    const { body } = await run({ runtimeMode: 'lookup', objectId: 'concept.wuwei', productId: 'daily-reflection' });
    expect(body.knowledgePackIds).toEqual(['daodejing', 'analects', 'yijing', 'diamond-sutra']);
    expect(body.productId).toBe('daily-reflection');
  });
});

describe('explore', () => {
  it('expands a situation: matched situations with four perspectives, concepts with relations, and the illumination', async () => {
    const { status, body } = await run({ runtimeMode: 'explore', query: SITUATION });
    expect(status).toBe(200);
    expect(body.matchedSituations[0]).toMatchObject({ id: 'situation.work.burnout', title: 'Burnout at work' });
    expect(body.matchedSituations[0].perspectives.map((p: { tradition: string }) => p.tradition)).toEqual(expect.arrayContaining(['daoist', 'confucian']));
    expect(body.matchedSituations[0].perspectives[0].passages[0]).toMatchObject({ id: expect.any(String), text: expect.any(String) });
    expect(body.illumination).toMatchObject({ protocol: 'KB-Illumination-1.1', abstention: null });
    expect(body.illumination.perspectives).toHaveLength(4);
    for (const c of body.concepts) expect(c).toMatchObject({ id: expect.stringMatching(/^concept\./), relations: expect.any(Array), detected: expect.any(Boolean) });
  });

  it('lists concepts named in the query as detected, with their relations', async () => {
    const { body } = await run({ runtimeMode: 'explore', query: 'What does wu wei ask of me at work?' });
    const wuwei = body.concepts.find((c: { id: string }) => c.id === 'concept.wuwei');
    expect(wuwei).toMatchObject({ detected: true });
    expect(wuwei.relations.length).toBeGreaterThan(0);
  });

  it('keeps only passages of the packs in scope in the situation perspectives', async () => {
    const { body } = await run({ runtimeMode: 'explore', query: SITUATION, knowledgePackIds: ['analects'] });
    const passages = body.matchedSituations.flatMap((s: { perspectives: { passages: { packId: string }[] }[] }) => s.perspectives.flatMap((p) => p.passages));
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.every((p: { packId: string }) => p.packId === 'analects')).toBe(true);
  });

  it('answers 400 naming query when it is missing or blank', async () => {
    for (const query of [undefined, '   ']) {
      const { status, body } = await run({ runtimeMode: 'explore', query });
      expect(status).toBe(400);
      expect(body.error.message).toMatch(/^body\.query: required when runtimeMode is explore/);
    }
  });
});

describe('compare', () => {
  it('never equates a relation the packs mark non_equivalent', async () => {
    const { status, body } = await run({ runtimeMode: 'compare', relationId: 'concept.wuwei|non_equivalent|concept.common.idleness' });
    expect(status).toBe(200);
    const { compare } = body;
    expect(compare.subject).toMatchObject({ kind: 'relation', relationType: 'non_equivalent', left: { id: 'concept.wuwei' }, right: { id: 'concept.common.idleness' } });
    expect(compare.equivalence).toBe('non_equivalent');
    expect(compare.nonEquivalence).toHaveLength(1);
    expect(compare.nonEquivalence[0].statement).toMatch(/rules out is forcing, not effort/);
    expect(compare.similarity.some((d: { dimension: string }) => d.dimension === 'relation.similar')).toBe(false);
    for (const d of [...compare.similarity, ...compare.difference, ...compare.nonEquivalence]) {
      expect(d.evidence.passages.length + d.evidence.claims.length, d.dimension).toBeGreaterThan(0);
    }
    expect(compare.positions.map((p: { objectId: string }) => p.objectId)).toEqual(['concept.wuwei', 'concept.common.idleness']);
  });

  it('puts a declared similarity under similarity, without a caveat', async () => {
    const { body } = await run({ runtimeMode: 'compare', relationId: 'concept.dao:similar:concept.ziran' });
    expect(body.compare.subject.relationId).toBe('concept.dao|similar|concept.ziran');
    expect(body.compare.equivalence).toBe('not_asserted');
    expect(body.compare.similarity).toContainEqual(expect.objectContaining({ dimension: 'relation.similar', caveat: null }));
    expect(body.compare.nonEquivalence).toEqual([]);
  });

  it('compares two objects; similarities between objects standing for non-equivalent concepts carry a caveat', async () => {
    const { body } = await run({ runtimeMode: 'compare', objectId: 'ddj.3', query: 'ddj.8' });
    expect(body.compare.subject).toMatchObject({ kind: 'objects', left: { id: 'ddj.3', type: 'passage' }, right: { id: 'ddj.8' } });
    expect(body.compare.equivalence).toBe('non_equivalent');
    expect(body.compare.nonEquivalence.length).toBeGreaterThan(0);
    expect(body.compare.similarity.length).toBeGreaterThan(0);
    for (const d of body.compare.similarity) expect(d.caveat).toMatch(/non-equivalent/);
  });

  it('compares the positions of a recorded conflict without merging them', async () => {
    const { body } = await run({ runtimeMode: 'compare', relationId: 'conflict.gewu' });
    expect(body.compare).toMatchObject({ severity: 'significant', equivalence: 'non_equivalent', subject: { kind: 'conflict' } });
    expect(body.compare.positions.length).toBeGreaterThanOrEqual(2);
    expect(body.compare.difference).toHaveLength(body.compare.positions.length);
    expect(body.compare.nonEquivalence[0].statement).toMatch(/never merged/);
    expect(body.citations.length).toBeGreaterThan(0);
  });

  it('answers 400 naming the missing field, 400 for a malformed relation, 404 for an unknown one', async () => {
    const none = await run({ runtimeMode: 'compare' });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/^body\.relationId: required when runtimeMode is compare/);
    const half = await run({ runtimeMode: 'compare', objectId: 'concept.wuwei' });
    expect(half.status).toBe(400);
    expect(half.body.error.message).toMatch(/^body\.query:/);
    const malformed = await run({ runtimeMode: 'compare', relationId: 'concept.wuwei|equals|concept.ziran' });
    expect(malformed.status).toBe(400);
    const unknown = await run({ runtimeMode: 'compare', relationId: 'concept.wuwei|similar|concept.junzi' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/no relation/);
  });
});

describe('source', () => {
  it('projects a source with metadata, edition, grade and paged passages', async () => {
    const first = await run({ runtimeMode: 'source', sourceId: 'src.daodejing', limit: 5 });
    expect(first.status).toBe(200);
    expect(first.body.source).toMatchObject({ id: 'src.daodejing', source_grade: 'A', edition: expect.stringMatching(/Wang Bi/), passageCount: 81 });
    expect(first.body.passages).toMatchObject({ offset: 0, limit: 5, total: 81, nextOffset: 5 });
    expect(first.body.passages.items.map((p: { locator: string }) => p.locator)).toEqual(['Daodejing 1', 'Daodejing 2', 'Daodejing 3', 'Daodejing 4', 'Daodejing 5']);
    const last = await run({ runtimeMode: 'source', sourceId: 'src.daodejing', offset: 80, limit: 5 });
    expect(last.body.passages).toMatchObject({ offset: 80, total: 81, nextOffset: null });
    expect(last.body.passages.items.map((p: { locator: string }) => p.locator)).toEqual(['Daodejing 81']);
    const defaults = await run({ runtimeMode: 'source', sourceId: 'src.daodejing' });
    expect(defaults.body.passages).toMatchObject({ offset: 0, limit: 20, nextOffset: 20 });
  });

  it('answers 400 naming sourceId when missing, 400 for a page size over 100, 404 for an unknown source', async () => {
    const missing = await run({ runtimeMode: 'source' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^body\.sourceId:/);
    expect((await run({ runtimeMode: 'source', sourceId: 'src.daodejing', limit: 101 })).status).toBe(400);
    expect((await run({ runtimeMode: 'source', sourceId: 'src.nothing' })).status).toBe(404);
  });
});

describe('path', () => {
  it('reads a formal path: ordered passages, each with why it follows', async () => {
    const { status, body } = await run({ runtimeMode: 'path', pathId: 'path.wuwei' });
    expect(status).toBe(200);
    expect(body.path).toMatchObject({ id: 'path.wuwei', tradition: 'daoist', length: 7 });
    const steps = body.path.steps;
    expect(steps.map((s: { order: number }) => s.order)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(steps[0]).toMatchObject({ passage: { id: 'ddj.2', locator: 'Daodejing 2' }, follows: null });
    for (let i = 1; i < steps.length; i++) expect(steps[i].follows).toBe(steps[i - 1].passage.id);
    for (const s of steps) expect(s.why.length).toBeGreaterThan(20);
    expect(body.source).toBeNull();
    expect(body.citations.length).toBeGreaterThan(0);
  });

  it('speaks the locale and anchors the path in a source that holds its passages', async () => {
    const zh = await run({ runtimeMode: 'path', pathId: 'path.wuwei', locale: 'zh', sourceId: 'src.daodejing' });
    expect(zh.body.path.title).toBe('无为之路');
    expect(zh.body.source).toMatchObject({ id: 'src.daodejing' });
    const wrong = await run({ runtimeMode: 'path', pathId: 'path.wuwei', sourceId: 'src.analects' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/^body\.sourceId:/);
  });

  it('answers 400 naming pathId when missing, and 404 for an unknown path or one outside the packs in scope', async () => {
    const missing = await run({ runtimeMode: 'path' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^body\.pathId:/);
    expect((await run({ runtimeMode: 'path', pathId: 'path.nowhere' })).status).toBe(404);
    expect((await run({ runtimeMode: 'path', pathId: 'path.wuwei', knowledgePackIds: ['analects'] })).status).toBe(404);
  });
});

describe('report_support', () => {
  it('answers with the synthesized report of the insights', async () => {
    const { status, body } = await run({ runtimeMode: 'report_support', query: SITUATION, productId: 'coaching-assistant' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ runtimeMode: 'report_support', classicModuleUsed: true, situationIds: expect.arrayContaining(['situation.work.burnout']) });
    expect(body.synthesized).toMatchObject({ overview: expect.any(String), layers: expect.any(Array), traditions: expect.any(Object) });
    expect(body.insights.length).toBeGreaterThan(0);
    expect(body.citations).toEqual(body.insights.flatMap((i: { citations: unknown[] }) => i.citations));
    expect(body.citations.length).toBeGreaterThan(0);
  });

  it('draws only on the classic packs in scope', async () => {
    const { body } = await run({ runtimeMode: 'report_support', query: SITUATION, knowledgePackIds: ['analects'] });
    expect(body.integratedPacks).toEqual(['analects']);
    const core = await run({ runtimeMode: 'report_support', query: SITUATION, knowledgePackIds: ['core'] });
    expect(core.status).toBe(400);
  });

  it('answers 400 naming query when it is missing', async () => {
    const { status, body } = await run({ runtimeMode: 'report_support' });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^body\.query:/);
  });
});

describe('release pinning', () => {
  it('serves the served release and refuses others with 404', async () => {
    expect((await run({ runtimeMode: 'lookup', objectId: 'ddj.8', releaseId: RELEASES.served })).status).toBe(200);
    const unknown = await run({ runtimeMode: 'lookup', objectId: 'ddj.8', releaseId: '1999.01.1' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('no release 1999.01.1');
    const notServed = await run({ runtimeMode: 'lookup', objectId: 'ddj.8', releaseId: RELEASES.older });
    expect(notServed.status).toBe(404);
    expect(notServed.body.error.message).toMatch(/is not served; the served release is 2026\.11\.1/);
  });

  it.each(['lookup', 'explore', 'compare', 'source', 'path', 'report_support'])('refuses an unknown release in %s mode', async (runtimeMode) => {
    const { status } = await run({ runtimeMode, releaseId: 'nope', objectId: 'ddj.8', query: SITUATION, sourceId: 'src.daodejing', pathId: 'path.wuwei', relationId: 'conflict.gewu' });
    expect(status).toBe(404);
  });
});

describe('the Gate', () => {
  it.each([
    ['explore', {}],
    ['report_support', {}],
    ['lookup', { objectId: 'ddj.8' }],
  ])('answers a blocked query in %s mode with 200 and an abstention', async (runtimeMode, extra) => {
    const { status, body } = await run({ runtimeMode, query: BLOCKED, ...extra });
    expect(status).toBe(200);
    expect(body).toEqual({
      runtimeMode,
      productId: 'test-product',
      releaseId: RELEASES.served,
      locale: 'en',
      knowledgePackIds: expect.any(Array),
      abstention: { reason: 'GATE_BLOCKED', category: 'divination', message: expect.stringMatching(/hexagram/) },
    });
  });

  it('lets an ordinary query through', async () => {
    const { body } = await run({ runtimeMode: 'explore', query: 'What does the Daodejing say about water?' });
    expect(body.abstention).toBeNull();
  });
});
