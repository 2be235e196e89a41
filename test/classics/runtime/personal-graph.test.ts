import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth } from '../../helpers.js';
import { makeRuntimeApp, type RuntimeTestApp } from './helpers.js';

let t: RuntimeTestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;
beforeAll(async () => {
  t = await makeRuntimeApp();
  alice = auth(t.app.ctx.keys.create('alice', 'classics', ['read']).key);
  bob = auth(t.app.ctx.keys.create('bob', 'classics', ['read']).key);
});
afterAll(() => t.close());

const REFERENCES = '/api/personal-graph/v1/references';
const save = (payload: Record<string, unknown>, headers?: Record<string, string>) => t.post(REFERENCES, payload, headers);
const list = (headers?: Record<string, string>, query = '') => t.get(`${REFERENCES}${query}`, headers);
const objectIds = (body: { references: { objectId: string }[] }) => body.references.map((r) => r.objectId);

describe('personal-graph references', () => {
  it("saves a reference for the key's owner and lists only that owner's references", async () => {
    const a = await save({ objectId: 'ddj.8', note: 'water' }, alice);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ created: true, reference: { owner: 'alice', objectId: 'ddj.8', objectType: 'passage', label: 'Daodejing 8', note: 'water', id: expect.stringMatching(/^pr_/) } });
    await save({ objectId: 'path.wuwei' }, alice);
    await save({ objectId: 'concept.wuwei' }, bob);

    const mine = await list(alice);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ owner: 'alice', total: 2 });
    expect(objectIds(mine.body)).toEqual(['ddj.8', 'path.wuwei']);
    const his = await list(bob);
    expect(objectIds(his.body)).toEqual(['concept.wuwei']);
  });

  it('refuses a per-user key reading or writing for another owner with 403', async () => {
    const read = await list(alice, '?owner=bob');
    expect(read.status).toBe(403);
    expect(read.body.error.code).toBe('FORBIDDEN');
    const write = await save({ objectId: 'ddj.9', owner: 'bob' }, alice);
    expect(write.status).toBe(403);
    expect(objectIds((await list(bob)).body)).toEqual(['concept.wuwei']);
    expect((await list(alice, '?owner=alice')).status).toBe(200);
  });

  it('makes a service token name the owner explicitly', async () => {
    const noOwner = await list();
    expect(noOwner.status).toBe(400);
    expect(noOwner.body.error.message).toMatch(/^querystring\.owner: a service token must name the owner/);
    const noOwnerWrite = await save({ objectId: 'ddj.1' });
    expect(noOwnerWrite.status).toBe(400);
    expect(noOwnerWrite.body.error.message).toMatch(/^body\.owner:/);

    expect(objectIds((await list(undefined, '?owner=alice')).body)).toEqual(['ddj.8', 'path.wuwei']);
    const forCarol = await save({ objectId: 'conflict.gewu', owner: 'carol' });
    expect(forCarol.body.reference).toMatchObject({ owner: 'carol', objectType: 'conflict' });
    expect(objectIds((await list(undefined, '?owner=carol')).body)).toEqual(['conflict.gewu']);
    expect(objectIds((await list(alice)).body)).not.toContain('conflict.gewu');
    expect(objectIds((await list(bob)).body)).not.toContain('conflict.gewu');
  });

  it('updates the note when an owner saves the same object again', async () => {
    const again = await save({ objectId: 'ddj.8', note: 'the highest good' }, alice);
    expect(again.body).toMatchObject({ created: false, reference: { note: 'the highest good', version: 2 } });
    expect((await list(alice)).body.total).toBe(2);
  });

  it('refuses an object that is not in the knowledge with 400', async () => {
    const { status, body } = await save({ objectId: 'concept.unicorn' }, alice);
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^body\.objectId: no object concept\.unicorn/);
  });
});
