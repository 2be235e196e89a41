import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND } from '../../../src/governance/kinds.js';
import { makeApp, type TestApp } from '../../helpers.js';
import { ACTOR_TABLE, expectRefused, get, post, rows } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

const conflictBody = {
  topic: 'Is wuwei passive?',
  objectIds: ['concept.wuwei', 'claim.ddj.37.1'],
  description: 'Two readings of Daodejing 37 disagree on whether wuwei excludes effort.',
  evidence: ['Daodejing 37'],
};
const perspective = (label: string) => ({
  label,
  claim: `${label}: wuwei rules out forcing, not effort`,
  evidence: ['Daodejing 63', { passageId: 'ddj.64' }],
  limitingConditions: ['read within the Daodejing alone'],
});

const register = async (actor = 'ai:detector') => {
  const r = await post(t, '/evolution/conflicts', conflictBody, actor);
  expect(r.status).toBe(201);
  return r.body.conflict as { id: string; state: string; perspectives: { id: string }[] };
};

describe('POST /evolution/conflicts', () => {
  it('registers a conflict in state open, by any actor kind, an AI included', async () => {
    for (const actor of ['ai:detector', 'system:job', 'human:ann', 'editorial:ed']) {
      const before = rows(t);
      const r = await post(t, '/evolution/conflicts', conflictBody, actor);
      expect(r.status).toBe(201);
      expect(r.body.conflict).toMatchObject({ ...conflictBody, state: 'open', registeredBy: actor, perspectives: [], resolution: null, version: 1, updatedBy: actor });
      expect(t.app.ctx.ledger.latest(KIND.knowledgeConflict, r.body.conflict.id)?.body).toMatchObject({ state: 'open' });
      expect(rows(t)).toBe(before + 1);
    }
  });

  it.each([
    ['topic missing', { ...conflictBody, topic: undefined }, /topic/],
    ['objectIds empty', { ...conflictBody, objectIds: [] }, /objectIds/],
    ['description blank', { ...conflictBody, description: '  ' }, /description/],
  ])('refuses with 422 CONFLICT_REGISTER_REJECTED when %s', async (_name, body, message) => {
    const r = await expectRefused(t, () => post(t, '/evolution/conflicts', body, 'human:ann'), 422, 'CONFLICT_REGISTER_REJECTED');
    expect(r.body.error.message).toMatch(message);
  });

  it('refuses a registration without a well-formed X-Actor', async () => {
    await expectRefused(t, () => post(t, '/evolution/conflicts', conflictBody), 422, 'CONFLICT_REGISTER_REJECTED');
    await expectRefused(t, () => post(t, '/evolution/conflicts', conflictBody, 'robot:x'), 422, 'CONFLICT_REGISTER_REJECTED');
  });

  it('answers 400 for a field of the wrong type', async () => {
    const r = await post(t, '/evolution/conflicts', { ...conflictBody, objectIds: 'concept.wuwei' }, 'human:ann');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/objectIds/);
  });
});

describe('POST /evolution/conflicts/{id}/perspectives', () => {
  it('adds numbered perspectives and moves the conflict to perspectives_added', async () => {
    const c = await register();
    const first = await post(t, `/evolution/conflicts/${c.id}/perspectives`, perspective('effort'), 'ai:reader');
    expect(first.status).toBe(201);
    expect(first.body.conflict.state).toBe('perspectives_added');
    expect(first.body.conflict.perspectives).toEqual([expect.objectContaining({ id: 'p1', ...perspective('effort'), addedBy: 'ai:reader' })]);
    const second = await post(t, `/evolution/conflicts/${c.id}/perspectives`, perspective('stillness'), 'human:ann');
    expect(second.body.conflict.perspectives.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2']);
    expect(second.body.conflict.version).toBe(3);
    expect(t.app.ctx.ledger.history(KIND.knowledgeConflict, c.id).map((r) => (r.body as { state: string }).state)).toEqual(['open', 'perspectives_added', 'perspectives_added']);
  });

  it.each([
    ['evidence missing', { ...perspective('x'), evidence: undefined }],
    ['evidence empty', { ...perspective('x'), evidence: [] }],
    ['evidence blank', { ...perspective('x'), evidence: ['  '] }],
    ['limitingConditions missing', { ...perspective('x'), limitingConditions: undefined }],
    ['limitingConditions empty', { ...perspective('x'), limitingConditions: [] }],
    ['limitingConditions blank', { ...perspective('x'), limitingConditions: [''] }],
    ['claim missing', { ...perspective('x'), claim: undefined }],
  ])('refuses with 422 PERSPECTIVE_REJECTED when %s', async (_name, body) => {
    const c = await register();
    await expectRefused(t, () => post(t, `/evolution/conflicts/${c.id}/perspectives`, body, 'human:ann'), 422, 'PERSPECTIVE_REJECTED');
    expect((await get(t, '/evolution/conflicts')).body.conflicts.find((x: { id: string }) => x.id === c.id).state).toBe('open');
  });

  it('refuses a perspective on a resolved conflict, and answers 404 for an unknown one', async () => {
    const c = await register();
    expect((await post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'DISMISS', rationale: 'not a conflict' }, 'human:ann')).status).toBe(201);
    await expectRefused(t, () => post(t, `/evolution/conflicts/${c.id}/perspectives`, perspective('late'), 'human:ann'), 422, 'PERSPECTIVE_REJECTED');
    expect((await post(t, '/evolution/conflicts/kc_missing/perspectives', perspective('x'), 'human:ann')).status).toBe(404);
  });
});

describe('POST /evolution/conflicts/{id}/resolve', () => {
  it.each(ACTOR_TABLE)('X-Actor %s may resolve: %s', async (actor, allowed) => {
    const c = await register();
    const body = { outcome: 'KEEP_MULTIPLE', rationale: 'both readings hold under their conditions' };
    if (allowed) {
      const r = await post(t, `/evolution/conflicts/${c.id}/resolve`, body, actor);
      expect(r.status).toBe(201);
      expect(r.body.conflict).toMatchObject({ state: 'resolved', resolution: { outcome: 'KEEP_MULTIPLE', resolvedBy: actor, preferredPerspectiveId: null } });
    } else {
      const r = await expectRefused(t, () => post(t, `/evolution/conflicts/${c.id}/resolve`, body, actor), 422, 'CONFLICT_RESOLVE_DENIED');
      expect(r.body.error.message).toMatch(actor === undefined ? /missing/ : /human|X-Actor must be/);
      expect(t.app.ctx.ledger.latest(KIND.knowledgeConflict, c.id)?.body).toMatchObject({ state: 'open', resolution: null });
    }
  });

  it('accepts KEEP_MULTIPLE with several perspectives standing side by side', async () => {
    const c = await register();
    await post(t, `/evolution/conflicts/${c.id}/perspectives`, perspective('a'), 'ai:reader');
    await post(t, `/evolution/conflicts/${c.id}/perspectives`, perspective('b'), 'ai:reader');
    const r = await post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'KEEP_MULTIPLE', rationale: 'each holds under its conditions' }, 'human:ann');
    expect(r.status).toBe(201);
    expect(r.body.conflict.perspectives).toHaveLength(2);
    expect(r.body.conflict.resolution.outcome).toBe('KEEP_MULTIPLE');
  });

  it('PREFER_ONE needs an existing perspective', async () => {
    const c = await register();
    await post(t, `/evolution/conflicts/${c.id}/perspectives`, perspective('a'), 'ai:reader');
    await expectRefused(t, () => post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'PREFER_ONE', rationale: 'r' }, 'human:ann'), 422, 'CONFLICT_RESOLVE_DENIED');
    await expectRefused(
      t,
      () => post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'PREFER_ONE', rationale: 'r', preferredPerspectiveId: 'p9' }, 'human:ann'),
      422,
      'CONFLICT_RESOLVE_DENIED',
    );
    const r = await post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'PREFER_ONE', rationale: 'p1 has the text', preferredPerspectiveId: 'p1' }, 'human:ann');
    expect(r.status).toBe(201);
    expect(r.body.conflict.resolution).toMatchObject({ outcome: 'PREFER_ONE', preferredPerspectiveId: 'p1' });
  });

  it('MERGE and DISMISS are outcomes; an unknown outcome, a missing rationale or a second resolution is refused', async () => {
    for (const outcome of ['MERGE', 'DISMISS']) {
      const c = await register();
      expect((await post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome, rationale: 'r' }, 'editorial:ed')).body.conflict.resolution.outcome).toBe(outcome);
    }
    const c = await register();
    await expectRefused(t, () => post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'OVERRULE', rationale: 'r' }, 'human:ann'), 422, 'CONFLICT_RESOLVE_DENIED');
    await expectRefused(t, () => post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'DISMISS' }, 'human:ann'), 422, 'CONFLICT_RESOLVE_DENIED');
    await expectRefused(
      t,
      () => post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'DISMISS', rationale: 'r', preferredPerspectiveId: 'p1' }, 'human:ann'),
      422,
      'CONFLICT_RESOLVE_DENIED',
    );
    expect((await post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'DISMISS', rationale: 'r' }, 'human:ann')).status).toBe(201);
    await expectRefused(t, () => post(t, `/evolution/conflicts/${c.id}/resolve`, { outcome: 'KEEP_MULTIPLE', rationale: 'r' }, 'human:ann'), 422, 'CONFLICT_RESOLVE_DENIED');
    expect((await post(t, '/evolution/conflicts/kc_missing/resolve', { outcome: 'DISMISS', rationale: 'r' }, 'human:ann')).status).toBe(404);
  });
});

describe('GET /evolution/conflicts', () => {
  it('lists every conflict with its total, filtered by state', async () => {
    const c = await register();
    const all = (await get(t, '/evolution/conflicts')).body;
    expect(all.total).toBe(all.conflicts.length);
    expect(all.total).toBe(t.app.ctx.ledger.current(KIND.knowledgeConflict).length);
    expect(all.conflicts.map((x: { id: string }) => x.id)).toContain(c.id);
    const resolved = (await get(t, '/evolution/conflicts?state=resolved')).body;
    expect(resolved.total).toBeGreaterThan(0);
    expect(resolved.conflicts.every((x: { state: string }) => x.state === 'resolved')).toBe(true);
    expect(resolved.total).toBeLessThan(all.total);
    expect(t.app.ctx.ledger.verify().ok).toBe(true);
  });
});
