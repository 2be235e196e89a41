import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers.js';
import { appendApproval, client } from './client.js';

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await makeApp();
  c = client(t);
});
afterAll(() => t.close());

const V1_CONTENT = { zh: '无为', en: 'non-action', definition: 'acting without forcing', tradition: 'daoist' };
const V2_CONTENT = { zh: '无为', en: 'non-coercive action', definition: 'acting without forcing', aliases: ['wu wei'] };

const create = (objectId: string, content: unknown = V1_CONTENT, actor: string | undefined = 'ai:importer') =>
  c.post('/evolution/state', { objectId, content }, actor);

/** Creates a state and evolves it once with a fresh approval: v1 and v2. */
async function twoVersions(objectId: string) {
  await create(objectId);
  appendApproval(t, `ap_${objectId}`, objectId);
  const evolved = await c.post(`/evolution/state/${objectId}/evolve`, { content: V2_CONTENT, approvalRef: `ap_${objectId}` }, 'human:ann');
  expect(evolved.status).toBe(201);
}

describe('POST /evolution/state', () => {
  it('creates version 1, by any well-formed actor', async () => {
    const { status, body } = await create('concept.wuwei');
    expect(status).toBe(201);
    expect(body.state).toMatchObject({ id: 'concept.wuwei', objectId: 'concept.wuwei', version: 1, change: 'create', content: V1_CONTENT, updatedBy: 'ai:importer' });
  });

  it.each([
    ['the objectId exists already', { objectId: 'concept.wuwei', content: V1_CONTENT }, 'human:ann'],
    ['content is an array', { objectId: 's.array', content: [1, 2] }, 'human:ann'],
    ['content is a string', { objectId: 's.string', content: 'text' }, 'human:ann'],
    ['content is null', { objectId: 's.null', content: null }, 'human:ann'],
    ['content is missing', { objectId: 's.missing' }, 'human:ann'],
    ['objectId is missing', { content: V1_CONTENT }, 'human:ann'],
    ['X-Actor is missing', { objectId: 's.no-actor', content: V1_CONTENT }, undefined],
    ['X-Actor is malformed', { objectId: 's.bad-actor', content: V1_CONTENT }, 'robot:x'],
  ])('refuses with 422 STATE_REJECTED when %s, writing nothing', async (_name, payload, actor) => {
    const rowsBefore = c.rows();
    const { status, body } = await c.post('/evolution/state', payload, actor);
    expect(status).toBe(422);
    expect(body.error.code).toBe('STATE_REJECTED');
    expect(c.rows()).toBe(rowsBefore);
  });
});

describe('POST /evolution/state/{id}/evolve', () => {
  beforeAll(async () => {
    await create('concept.ren', { zh: '仁' });
    appendApproval(t, 'ap_other', 'concept.li');
    appendApproval(t, 'ap_by_ai', 'concept.ren', 'ai:model');
    appendApproval(t, 'ap_used', 'concept.ren');
    appendApproval(t, 'ap_fresh', 'concept.ren');
    expect((await c.post('/evolution/state/concept.ren/evolve', { content: { zh: '仁', en: 'humaneness' }, approvalRef: 'ap_used' }, 'human:ann')).status).toBe(201);
  });

  it('appends the next version with an approval of this object; the previous version is kept', async () => {
    await create('concept.dao', { zh: '道' });
    appendApproval(t, 'ap_test', 'concept.dao');
    const { status, body } = await c.post('/evolution/state/concept.dao/evolve', { content: { zh: '道', en: 'the Way' }, approvalRef: 'ap_test' }, 'human:ann');
    expect(status).toBe(201);
    expect(body.previous).toMatchObject({ version: 1, content: { zh: '道' }, change: 'create' });
    expect(body.next).toMatchObject({ version: 2, content: { zh: '道', en: 'the Way' }, change: 'evolve', approvalRef: 'ap_test', updatedBy: 'human:ann' });
    const history = (await c.get('/evolution/state/concept.dao/history')).body.history;
    expect(history.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(history[0].content).toEqual({ zh: '道' });
  });

  it.each([
    ['without approvalRef', { content: { a: 1 } }],
    ['with an unknown approvalRef', { content: { a: 1 }, approvalRef: 'ap_nowhere' }],
    ['with an approval of another object', { content: { a: 1 }, approvalRef: 'ap_other' }],
    ['with an approval written by an ai actor', { content: { a: 1 }, approvalRef: 'ap_by_ai' }],
    ['with an approval already applied to this state', { content: { a: 1 }, approvalRef: 'ap_used' }],
    ['with content that is not an object', { content: ['a'], approvalRef: 'ap_fresh' }],
    ['without content', { approvalRef: 'ap_fresh' }],
  ])('refuses %s with 422 STATE_EVOLVE_DENIED, writing nothing', async (_name, payload) => {
    const rowsBefore = c.rows();
    const { status, body } = await c.post('/evolution/state/concept.ren/evolve', payload, 'human:ann');
    expect(status).toBe(422);
    expect(body.error.code).toBe('STATE_EVOLVE_DENIED');
    expect(c.rows()).toBe(rowsBefore);
  });

  it('answers 404 for an unknown state', async () => {
    appendApproval(t, 'ap_ghost', 'concept.ghost');
    const { status } = await c.post('/evolution/state/concept.ghost/evolve', { content: { a: 1 }, approvalRef: 'ap_ghost' }, 'human:ann');
    expect(status).toBe(404);
  });
});

describe('POST /evolution/state/{id}/rollback', () => {
  it('appends a new version with the content of toVersion and rolledBackToVersion; history stays immutable', async () => {
    await twoVersions('concept.de');
    const before = (await c.get('/evolution/state/concept.de/history')).body.history;
    const { status, body } = await c.post('/evolution/state/concept.de/rollback', { toVersion: 1, note: 'v2 dropped the tradition' }, 'editorial:ed');
    expect(status).toBe(201);
    expect(body.previous).toMatchObject({ version: 2, content: V2_CONTENT });
    expect(body.rolledBack).toMatchObject({ version: 3, content: V1_CONTENT, change: 'rollback', rolledBackToVersion: 1, updatedBy: 'editorial:ed' });
    const after = (await c.get('/evolution/state/concept.de/history')).body.history;
    expect(after).toHaveLength(3);
    expect(after.slice(0, 2)).toEqual(before);
    expect(after[2]).toEqual(body.rolledBack);
  });

  it('accepts "v2" as a version', async () => {
    const { status, body } = await c.post('/evolution/state/concept.de/rollback', { toVersion: 'v2' }, 'human:ann');
    expect(status).toBe(201);
    expect(body.rolledBack).toMatchObject({ version: 4, content: V2_CONTENT, rolledBackToVersion: 2 });
  });

  it.each([
    ['an unknown version', { toVersion: 9 }],
    ['the current version', { toVersion: 4 }],
    ['no toVersion', {}],
  ])('refuses %s with 422 STATE_ROLLBACK_DENIED, writing nothing', async (_name, payload) => {
    const rowsBefore = c.rows();
    const { status, body } = await c.post('/evolution/state/concept.de/rollback', payload, 'human:ann');
    expect(status).toBe(422);
    expect(body.error.code).toBe('STATE_ROLLBACK_DENIED');
    expect(c.rows()).toBe(rowsBefore);
  });

  it('answers 404 for an unknown state', async () => {
    expect((await c.post('/evolution/state/concept.ghost/rollback', { toVersion: 1 }, 'human:ann')).status).toBe(404);
  });
});

describe('GET /evolution/state/{id}/history', () => {
  it('lists every version in order', async () => {
    const { status, body } = await c.get('/evolution/state/concept.de/history');
    expect(status).toBe(200);
    expect(body.objectId).toBe('concept.de');
    expect(body.history.map((v: { change: string }) => v.change)).toEqual(['create', 'evolve', 'rollback', 'rollback']);
  });

  it('answers 404 for an unknown state', async () => {
    const { status, body } = await c.get('/evolution/state/concept.ghost/history');
    expect(status).toBe(404);
    expect(body.error.code).toBe('NOT_FOUND');
  });
});

describe('GET /evolution/state/compare', () => {
  it('lists changed, removed, added and unchanged top-level keys', async () => {
    await twoVersions('concept.xin');
    const { status, body } = await c.get('/evolution/state/compare?objectId=concept.xin&from=1&to=v2');
    expect(status).toBe(200);
    expect(body).toEqual({
      objectId: 'concept.xin',
      from: 1,
      to: 2,
      diff: { changed: ['en'], removed: ['tradition'], added: ['aliases'], unchanged: ['definition', 'zh'] },
    });
  });

  it('compares values regardless of key order', async () => {
    await create('concept.order', { meta: { a: 1, b: 2 } });
    appendApproval(t, 'ap_order', 'concept.order');
    await c.post('/evolution/state/concept.order/evolve', { content: { meta: { b: 2, a: 1 } }, approvalRef: 'ap_order' }, 'human:ann');
    const { body } = await c.get('/evolution/state/compare?objectId=concept.order&from=1&to=2');
    expect(body.diff).toEqual({ changed: [], removed: [], added: [], unchanged: ['meta'] });
  });

  it.each(['from=1&to=2', 'objectId=concept.xin&to=2', 'objectId=concept.xin&from=1', 'objectId=concept.xin&from=x&to=2'])('answers 400 for %s', async (query) => {
    const { status, body } = await c.get(`/evolution/state/compare?${query}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('INVALID_REQUEST');
  });

  it.each(['objectId=concept.ghost&from=1&to=2', 'objectId=concept.xin&from=1&to=7'])('answers 404 for %s', async (query) => {
    expect((await c.get(`/evolution/state/compare?${query}`)).status).toBe(404);
  });
});
