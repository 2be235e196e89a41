import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/platform/keys.js';
import { auth, TOKENS } from '../helpers.js';
import { atlasApp, fixturePack } from './helpers.js';

type App = Awaited<ReturnType<typeof atlasApp>>;
let t: App;
beforeAll(async () => {
  t = await atlasApp();
});
afterAll(() => t.close());

const V1 = '/api/atlas/v1';
const consumer = auth(TOKENS.atlas);
const admin = auth(TOKENS.atlasAdmin);
const consumerKeyId = `cfg-${sha256(TOKENS.atlas).slice(0, 12)}`;
const get = (url: string, headers = consumer) => t.app.inject({ method: 'GET', url: `${V1}${url}`, headers });
const post = (url: string, payload: unknown, headers = consumer) => t.app.inject({ method: 'POST', url: `${V1}${url}`, headers, payload: payload as object });
const expectInvalid = (r: { statusCode: number; json: () => any }, field: RegExp) => {
  expect(r.statusCode).toBe(400);
  expect(r.json().error.code).toBe('INVALID_REQUEST');
  expect(r.json().error.message).toMatch(field);
};

describe('ready and stats', () => {
  it('ready names the pack being served', async () => {
    const r = await t.app.inject({ method: 'GET', url: `${V1}/ready` });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ ok: true, service: 'atlas', version: '0.1.0', packId: 'design-mini', packName: 'Design mini (test fixture)', channel: 'test', releasedAt: '2025-01-15T00:00:00Z' });
  });

  it('stats reports the version and the manifest computed from the records', async () => {
    const r = await get('/stats');
    expect(r.statusCode).toBe(200);
    const pack = fixturePack();
    expect(r.json()).toEqual({
      version: { version: '0.1.0', channel: 'test', packId: 'design-mini', releasedAt: '2025-01-15T00:00:00Z' },
      manifest: pack.manifest,
    });
    expect(r.json().manifest.governance.relationshipsSkippedMissingEndpoint).toBe(2);
  });

  it('needs a key', async () => {
    expect((await get('/stats', {} as never)).statusCode).toBe(401);
  });
});

describe('lookup', () => {
  it('finds an entity by id and by slug', async () => {
    const byId = await get('/lookup?id=person.wilhelm-rontgen');
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toMatchObject({ kind: 'entity', id: 'person.wilhelm-rontgen', data: { displayName: 'Wilhelm Röntgen', born: 1845 } });
    const bySlug = await get('/lookup?slug=wilhelm-rontgen');
    expect(bySlug.json()).toEqual(byId.json());
  });

  it('says what kind of record an id names', async () => {
    expect((await get('/lookup?id=rel.gropius-founded-bauhaus')).json()).toMatchObject({ kind: 'relationship', data: { source: 'person.walter-gropius', confidence: 0.98, candidate: false } });
    expect((await get('/lookup?id=ev.gropius-founded-droste')).json()).toMatchObject({ kind: 'evidence', data: { sourceEntityId: 'source.droste-bauhaus' } });
  });

  it('answers 404 NOT_FOUND for unknown, hidden or skipped records', async () => {
    for (const q of ['id=person.nobody', 'id=person.hidden-designer', 'slug=hidden-designer', 'id=rel.gropius-mentored-hidden', 'id=rel.gropius-knew-nobody', 'id=ev.weimar-internal']) {
      const r = await get(`/lookup?${q}`);
      expect(r.statusCode, q).toBe(404);
      expect(r.json().error.code).toBe('NOT_FOUND');
    }
  });

  it('needs exactly one of id and slug', async () => {
    expectInvalid(await get('/lookup?id=person.wilhelm-rontgen&slug=wilhelm-rontgen'), /^querystring: give exactly one of id or slug$/);
    expectInvalid(await get('/lookup'), /exactly one of id or slug/);
    expectInvalid(await get('/lookup?id='), /querystring\.id/);
  });
});

describe('search', () => {
  it('answers hits with count, exact alias first with score 1', async () => {
    const r = await post('/search', { q: 'Model B3' });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.q).toBe('Model B3');
    expect(body.count).toBe(body.hits.length);
    expect(body.hits[0]).toEqual({ id: 'work.wassily-chair', kind: 'work', displayName: 'Wassily Chair', slug: 'wassily-chair', score: 1, matchedField: 'aliases' });
  });

  it('answers a repeated search, in another case, with the same hits and its own q, serialised as the schema lays it out', async () => {
    const first = await post('/search', { q: 'Chair "B3"\\', limit: 5 });
    const again = await post('/search', { q: 'chair "b3"\\', limit: 5 });
    for (const r of [first, again]) {
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = r.json();
      // Field order and values are those of the response schema, re-serialised from the parsed body.
      expect(r.body).toBe(JSON.stringify({ q: body.q, count: body.count, hits: body.hits }));
      expect(body.count).toBe(body.hits.length);
    }
    expect(first.json().q).toBe('Chair "B3"\\');
    expect(again.json().q).toBe('chair "b3"\\');
    expect(again.json().hits).toEqual(first.json().hits);
    expect(first.json().hits.length).toBeGreaterThan(0);
  });

  it('finds Röntgen for Rontgen and Sori Yanagi for 柳宗理', async () => {
    expect((await post('/search', { q: 'Rontgen' })).json().hits[0].id).toBe('person.wilhelm-rontgen');
    expect((await post('/search', { q: '柳宗理' })).json().hits[0]).toMatchObject({ id: 'person.sori-yanagi', score: 1 });
  });

  it('applies scope and limit (default 20)', async () => {
    const scoped = (await post('/search', { q: 'bauhaus', scope: ['place'] })).json();
    expect(scoped.hits.length).toBeGreaterThan(0);
    expect(scoped.hits.every((h: { kind: string }) => h.kind === 'place')).toBe(true);
    expect((await post('/search', { q: 'bauhaus', limit: 1 })).json().count).toBe(1);
    expect((await post('/search', { q: 'the' })).json().count).toBeLessThanOrEqual(20);
  });

  it('refuses q of 0 or 201 characters, accepts 200', async () => {
    expectInvalid(await post('/search', { q: '' }), /^body\.q:/);
    expectInvalid(await post('/search', { q: 'a'.repeat(201) }), /^body\.q:/);
    expect((await post('/search', { q: 'a'.repeat(200) })).statusCode).toBe(200);
    // Characters are code points: 200 CJK-extension characters (two UTF-16 units each) are fine.
    expect((await post('/search', { q: '𠀋'.repeat(200) })).statusCode).toBe(200);
    expectInvalid(await post('/search', { q: '𠀋'.repeat(201) }), /^body\.q:/);
  });

  it('refuses limit 0 or 101, wrong types and unknown kinds', async () => {
    expectInvalid(await post('/search', { q: 'x', limit: 0 }), /^body\.limit:/);
    expectInvalid(await post('/search', { q: 'x', limit: 101 }), /^body\.limit:/);
    expect((await post('/search', { q: 'x', limit: 100 })).statusCode).toBe(200);
    expectInvalid(await post('/search', { q: 'x', limit: '5' }), /^body\.limit:/);
    expectInvalid(await post('/search', { q: 'x', limit: 2.5 }), /^body\.limit:/);
    expectInvalid(await post('/search', { q: 42 }), /^body\.q:/);
    expectInvalid(await post('/search', { q: 'x', scope: ['robot'] }), /^body\.scope\.0:/);
    expectInvalid(await post('/search', { q: 'x', scope: 'person' }), /^body\.scope:/);
    expectInvalid(await post('/search', {}), /^body\.q:/);
  });
});

describe('graph', () => {
  it('answers the neighbourhood with the defaults (depth 2, 40 nodes)', async () => {
    const r = await post('/graph', { rootId: 'person.walter-gropius' });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.rootId).toBe('person.walter-gropius');
    expect(body.nodes).toHaveLength(6);
    expect(body.truncated).toBe(true);
    const nodes = new Set(body.nodes.map((n: { id: string }) => n.id));
    for (const e of body.edges) expect(nodes.has(e.source) && nodes.has(e.target)).toBe(true);
    expect(body.nodes[0]).toEqual({ id: 'person.walter-gropius', label: 'Walter Gropius', kind: 'person', group: 'person', description: 'German architect who founded the Bauhaus school.' });
  });

  it('is not truncated when the component fits', async () => {
    const body = (await post('/graph', { rootId: 'person.walter-gropius', maxDepth: 5, maxNodes: 9 })).json();
    expect(body.nodes).toHaveLength(9);
    expect(body.truncated).toBe(false);
  });

  it('answers 404 NOT_FOUND for an unknown or hidden root', async () => {
    for (const rootId of ['person.nobody', 'person.hidden-designer', 'rel.gropius-founded-bauhaus']) {
      const r = await post('/graph', { rootId });
      expect(r.statusCode, rootId).toBe(404);
      expect(r.json()).toEqual({ error: { code: 'NOT_FOUND', message: `no entity with id "${rootId}"` } });
    }
  });

  it('refuses maxDepth 0 or 6, maxNodes 0 or 201, and wrong types', async () => {
    const root = { rootId: 'person.walter-gropius' };
    expectInvalid(await post('/graph', { ...root, maxDepth: 0 }), /^body\.maxDepth:/);
    expectInvalid(await post('/graph', { ...root, maxDepth: 6 }), /^body\.maxDepth:/);
    expectInvalid(await post('/graph', { ...root, maxNodes: 0 }), /^body\.maxNodes:/);
    expectInvalid(await post('/graph', { ...root, maxNodes: 201 }), /^body\.maxNodes:/);
    expect((await post('/graph', { ...root, maxDepth: 5, maxNodes: 200 })).statusCode).toBe(200);
    expect((await post('/graph', { ...root, maxDepth: 1, maxNodes: 1 })).json()).toMatchObject({ nodes: [{ id: root.rootId }], edges: [], truncated: true });
    expectInvalid(await post('/graph', { ...root, maxDepth: '2' }), /^body\.maxDepth:/);
    expectInvalid(await post('/graph', { rootId: 7 }), /^body\.rootId:/);
    expectInvalid(await post('/graph', {}), /^body\.rootId:/);
  });
});

describe('usage and billing', () => {
  it('counts a burst of requests per key and endpoint, not refused ones', async () => {
    const before = (await get('/admin/usage', admin)).json();
    const N = 37;
    await Promise.all(Array.from({ length: N }, (_, i) => post('/search', { q: `bauhaus ${i}` })));
    for (let i = 0; i < 5; i++) await get('/lookup?id=place.weimar');
    await get('/stats', {} as never); // 401: no key, not counted
    const r = await get('/admin/usage', admin);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    const today = new Date().toISOString().slice(0, 10);
    expect(body.from).toBe(`${today.slice(0, 7)}-01`);
    expect(body.to.slice(0, 7)).toBe(today.slice(0, 7));
    const count = (report: any, endpoint: string) =>
      report.rows.filter((x: any) => x.keyId === consumerKeyId && x.endpoint === endpoint && x.day === today).reduce((n: number, x: any) => n + x.requests, 0);
    expect(count(body, 'search') - count(before, 'search')).toBe(N);
    expect(count(body, 'lookup') - count(before, 'lookup')).toBe(5);
    expect(body.totals.byKey[consumerKeyId] - (before.totals.byKey[consumerKeyId] ?? 0)).toBe(N + 5);
    expect(body.totals.requests).toBe(body.rows.reduce((n: number, x: any) => n + x.requests, 0));
    expect(JSON.stringify(body)).not.toContain(TOKENS.atlas);
  });

  it('validates the usage range', async () => {
    expectInvalid(await get('/admin/usage?from=2025-03-10&to=2025-03-01', admin), /^querystring\.from: from must not be after to$/);
    expectInvalid(await get('/admin/usage?from=2025-02-30', admin), /^querystring\.from:/);
    expectInvalid(await get('/admin/usage?to=03/01/2025', admin), /^querystring\.to:/);
    const r = (await get('/admin/usage?from=2020-01-01&to=2020-01-31', admin)).json();
    expect(r).toEqual({ from: '2020-01-01', to: '2020-01-31', rows: [], totals: { requests: 0, byKey: {}, byEndpoint: {} } });
  });

  it('bills the current month by default and validates the month', async () => {
    const r = await get('/admin/billing', admin);
    expect(r.statusCode).toBe(200);
    const bill = r.json();
    expect(bill.month).toBe(new Date().toISOString().slice(0, 7));
    expect(bill.currency).toBe('EUR');
    expect(bill.keys.find((k: any) => k.keyId === consumerKeyId).lines.find((l: any) => l.class === 'search').requests).toBeGreaterThanOrEqual(37);
    expectInvalid(await get('/admin/billing?month=2025-13', admin), /^querystring\.month:/);
    expect((await get('/admin/billing?month=2020-01', admin)).json()).toMatchObject({ month: '2020-01', keys: [], totals: { amount: 0 } });
  });

  it('keeps admin endpoints to admin keys', async () => {
    expect((await get('/admin/usage')).statusCode).toBe(403);
    expect((await get('/admin/billing')).statusCode).toBe(403);
  });
});
