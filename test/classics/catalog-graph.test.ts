import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, makeApp, TOKENS, type TestApp } from '../helpers.js';

let t: TestApp;
const headers = auth(TOKENS.classics);
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers });

describe('packs, releases and sources', () => {
  it('lists the packs of the served release with their checksums', async () => {
    const r = await get('/api/classics/v1/packs');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.packs.map((p: { id: string }) => p.id)).toEqual(['analects', 'chuanxilu', 'core', 'daodejing', 'diamond-sutra', 'yijing']);
    const release = (await get(`/api/classics/v1/releases/${body.releaseId}`)).json();
    expect(release.current).toBe(true);
    for (const pack of body.packs) expect(release.packs).toContainEqual({ id: pack.id, version: pack.version, sha256: pack.sha256 });
    expect(body.packs.find((p: { id: string }) => p.id === 'daodejing').counts.passages).toBe(81);
  });

  it('answers 404 for an unknown release', async () => {
    const r = await get('/api/classics/v1/releases/1999.1.1');
    expect(r.statusCode).toBe(404);
    expect(r.json().error.code).toBe('NOT_FOUND');
  });

  it('groups the source registry by grade', async () => {
    const body = (await get('/api/classics/v1/trusted-query/sources')).json();
    expect(body.protocol).toBe('KB-TKP-1.0');
    expect(body.count).toBe(body.sources.length);
    expect(body.by_grade.A).toEqual(expect.arrayContaining(['src.daodejing', 'src.analects', 'src.diamond-sutra', 'src.yijing.zhouyi', 'src.chuanxilu']));
    expect(body.by_grade.B).toContain('src.yijing.commentaries');
    expect(body.sources.find((s: { source_id: string }) => s.source_id === 'src.daodejing').passages).toBe(81);
  });
});

describe('graph reads (v2)', () => {
  it('reads a passage node with its text', async () => {
    const r = await get('/api/classics/v2/graph/nodes/ddj.8');
    expect(r.statusCode).toBe(200);
    expect(r.json().node).toMatchObject({ id: 'ddj.8', type: 'passage', locator: 'Daodejing 8' });
    expect(r.json().data.text).toMatch(/^上善若水/);
  });

  it('answers 404 for an unknown node or release', async () => {
    expect((await get('/api/classics/v2/graph/nodes/nope')).statusCode).toBe(404);
    expect((await get('/api/classics/v2/graph/nodes/ddj.8?releaseId=1999.1.1')).statusCode).toBe(404);
    expect((await get('/api/classics/v2/graph/nodes/nope/neighbors')).statusCode).toBe(404);
  });

  it('walks typed relations from a concept, depth 1-3 and 400 beyond', async () => {
    const one = (await get('/api/classics/v2/graph/nodes/concept.wuwei/neighbors?depth=1')).json();
    expect(one.nodes[0].id).toBe('concept.wuwei');
    expect(one.edges.some((e: { type: string; target: string }) => e.type === 'non_equivalent')).toBe(true);
    const adjacent = new Set(one.edges.filter((e: { source: string; target: string }) => e.source === 'concept.wuwei' || e.target === 'concept.wuwei').flatMap((e: { source: string; target: string }) => [e.source, e.target]));
    for (const n of one.nodes) expect(adjacent.has(n.id), n.id).toBe(true);
    const two = (await get('/api/classics/v2/graph/nodes/concept.wuwei/neighbors?depth=2')).json();
    expect(two.nodes.length).toBeGreaterThan(one.nodes.length);
    expect((await get('/api/classics/v2/graph/nodes/concept.wuwei/neighbors?depth=4')).statusCode).toBe(400);
    expect((await get('/api/classics/v2/graph/nodes/concept.wuwei/neighbors?depth=0')).statusCode).toBe(400);
  });

  it('cuts a subgraph at the node limit and says so', async () => {
    const post = (body: object) => t.app.inject({ method: 'POST', url: '/api/classics/v2/graph/subgraph', headers, payload: body });
    const cut = (await post({ seedIds: ['concept.wuwei'], depth: 3, nodeLimit: 5 })).json();
    expect(cut.nodes).toHaveLength(5);
    expect(cut.truncated).toBe(true);
    const ids = new Set(cut.nodes.map((n: { id: string }) => n.id));
    for (const e of cut.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
    const only = (await post({ seedIds: ['concept.wuwei'], depth: 1, relationTypes: ['non_equivalent'] })).json();
    expect(only.truncated).toBe(false);
    expect(only.edges.every((e: { type: string }) => e.type === 'non_equivalent')).toBe(true);
    expect((await post({ seedIds: ['nope'] })).statusCode).toBe(404);
    expect((await post({ seedIds: [] })).statusCode).toBe(400);
  });
});
