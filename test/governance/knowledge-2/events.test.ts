import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND } from '../../../src/governance/kinds.js';
import { makeApp, type TestApp } from '../../helpers.js';
import { ACTOR_TABLE, expectRefused, get, post, rows } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

let n = 0;
const eventBody = (kind = 'change', extra: Record<string, unknown> = {}) => ({
  kind,
  objectId: 'claim.ddj.8.1',
  payload: { field: 'statement_en', seq: ++n },
  evidence: ['Daodejing 8'],
  ...extra,
});

const emit = async (kind = 'change') => {
  const r = await post(t, '/evolution/events', eventBody(kind), 'system:detector');
  expect(r.status).toBe(201);
  return r.body.event as { id: string; objectId: string; queueState: string };
};
const move = (id: string, to: string, actor?: string, approvalRef?: string) =>
  post(t, `/evolution/events/${id}/transition`, { to, ...(approvalRef ? { approvalRef } : {}) }, actor);

/** An approval record as the evolution-governance approvals endpoint writes it. */
const approve = (recordId: string, targetId: string) =>
  t.app.ctx.ledger.append({
    kind: KIND.approval,
    recordId,
    actor: 'human:ann',
    body: { targetKind: 'event', targetId, revision: 'x', candidateId: 'c1', approvedBy: 'human:ann' },
  });

describe('POST /evolution/events', () => {
  it.each([
    ['change', 'change-signals'],
    ['drift', 'semantic-drift'],
    ['conflict', 'conflicts'],
    ['graph', 'graph-evolution'],
    ['agent', 'agents'],
    ['audit', 'audit'],
    ['personal', 'personal-evolution'],
  ])('routes a %s event to %s and queues it, never approved', async (kind, engine) => {
    const before = rows(t);
    const r = await post(t, '/evolution/events', eventBody(kind, { payload: { approved: true, seq: ++n } }), 'ai:watcher');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ accepted: true, reason: null });
    expect(r.body.event).toMatchObject({ kind, route: { engine }, queueState: 'queued', status: 'open', approvalRef: null, emittedBy: 'ai:watcher', transitions: [] });
    expect(r.body.event.route.endpoint).toMatch(/^\/api\/classics\/v1\/evolution\//);
    expect(rows(t)).toBe(before + 1);
  });

  it.each([
    ['evidence missing', { evidence: undefined }],
    ['evidence empty', { evidence: [] }],
    ['evidence blank', { evidence: ['', {}] }],
    ['kind unknown', { kind: 'rumour' }],
    ['kind missing', { kind: undefined }],
    ['objectId missing', { objectId: '' }],
  ])('refuses with 422 EVENT_EMIT_REJECTED when %s', async (_name, extra) => {
    await expectRefused(t, () => post(t, '/evolution/events', eventBody('change', extra), 'human:ann'), 422, 'EVENT_EMIT_REJECTED');
  });

  it('refuses an event without X-Actor', async () => {
    await expectRefused(t, () => post(t, '/evolution/events', eventBody()), 422, 'EVENT_EMIT_REJECTED');
  });

  it('does not queue the same open event twice', async () => {
    const body = eventBody('drift');
    const first = await post(t, '/evolution/events', body, 'system:detector');
    const before = rows(t);
    const again = await post(t, '/evolution/events', { ...body, payload: { seq: body.payload.seq, field: 'statement_en' } }, 'system:detector');
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ accepted: false, event: { id: first.body.event.id } });
    expect(again.body.reason).toMatch(first.body.event.id);
    expect(rows(t)).toBe(before);
  });
});

describe('POST /evolution/events/{id}/transition', () => {
  it('moves along the queue whitelist and records each move', async () => {
    const e = await emit();
    const review = await move(e.id, 'in_review', 'ai:triager');
    expect(review.status).toBe(200);
    expect(review.body.event).toMatchObject({ queueState: 'in_review', status: 'open' });
    expect((await move(e.id, 'deferred', 'system:job')).body.event.queueState).toBe('deferred');
    expect((await move(e.id, 'queued', 'human:ann')).body.event.queueState).toBe('queued');
    const rejected = await move(e.id, 'rejected', 'human:ann');
    expect(rejected.body.event).toMatchObject({ queueState: 'rejected', status: 'closed' });
    expect(rejected.body.event.transitions.map((x: { from: string; to: string }) => `${x.from}->${x.to}`)).toEqual([
      'queued->in_review',
      'in_review->deferred',
      'deferred->queued',
      'queued->rejected',
    ]);
    expect(t.app.ctx.ledger.history(KIND.evolutionEvent, e.id)).toHaveLength(5);
  });

  it.each([
    ['queued', 'approved'],
    ['queued', 'queued'],
    ['queued', 'closed'],
  ])('refuses %s -> %s with 422 EVENT_TRANSITION_DENIED', async (_from, to) => {
    const e = await emit();
    approve(`ap_${e.id}`, e.id);
    await expectRefused(t, () => move(e.id, to, 'human:ann', `ap_${e.id}`), 422, 'EVENT_TRANSITION_DENIED');
  });

  it('keeps approved and rejected final', async () => {
    const e = await emit();
    await move(e.id, 'rejected', 'human:ann');
    await expectRefused(t, () => move(e.id, 'queued', 'human:ann'), 422, 'EVENT_TRANSITION_DENIED');
    expect((await move('ev_missing', 'in_review', 'human:ann')).status).toBe(404);
  });

  it.each(ACTOR_TABLE)('X-Actor %s may move an event to approved with an approvalRef: %s', async (actor, allowed) => {
    const e = await emit();
    await move(e.id, 'in_review', 'human:ann');
    approve(`ap_${e.id}`, e.id);
    if (allowed) {
      const r = await move(e.id, 'approved', actor, `ap_${e.id}`);
      expect(r.status).toBe(200);
      expect(r.body.event).toMatchObject({ queueState: 'approved', status: 'closed', approvalRef: `ap_${e.id}` });
      expect(r.body.event.transitions.at(-1)).toMatchObject({ from: 'in_review', to: 'approved', actor, approvalRef: `ap_${e.id}` });
    } else {
      await expectRefused(t, () => move(e.id, 'approved', actor, `ap_${e.id}`), 422, 'EVENT_TRANSITION_DENIED');
      expect(t.app.ctx.ledger.latest(KIND.evolutionEvent, e.id)?.body).toMatchObject({ queueState: 'in_review' });
    }
  });

  it.each(ACTOR_TABLE)('X-Actor %s may reject an event: %s', async (actor, allowed) => {
    const e = await emit();
    if (allowed) expect((await move(e.id, 'rejected', actor)).body.event.queueState).toBe('rejected');
    else await expectRefused(t, () => move(e.id, 'rejected', actor), 422, 'EVENT_TRANSITION_DENIED');
  });

  it('refuses approved for a human without an approvalRef, with an unknown one, or with one for another object', async () => {
    const e = await emit();
    await move(e.id, 'in_review', 'human:ann');
    approve('ap_other', 'claim.other');
    for (const ref of [undefined, 'ap_nowhere', 'ap_other']) {
      const r = await expectRefused(t, () => move(e.id, 'approved', 'human:ann', ref), 422, 'EVENT_TRANSITION_DENIED');
      expect(r.body.error.message).toMatch(/approval/);
    }
  });

  it("accepts an approval of the event's object", async () => {
    const e = await emit();
    await move(e.id, 'in_review', 'human:ann');
    approve('ap_object', e.objectId);
    expect((await move(e.id, 'approved', 'human:ann', 'ap_object')).body.event.queueState).toBe('approved');
  });

  it('refuses queue moves without a well-formed X-Actor', async () => {
    const e = await emit();
    await expectRefused(t, () => move(e.id, 'in_review'), 422, 'EVENT_TRANSITION_DENIED');
    await expectRefused(t, () => move(e.id, 'in_review', 'robot:x'), 422, 'EVENT_TRANSITION_DENIED');
  });
});

describe('GET /evolution/events', () => {
  it('lists events with filters status and queueState', async () => {
    const e = await emit('graph');
    await move(e.id, 'in_review', 'human:ann');
    const all = (await get(t, '/evolution/events')).body;
    expect(all.total).toBe(all.events.length);
    expect(all.total).toBe(t.app.ctx.ledger.current(KIND.evolutionEvent).length);
    const inReview = (await get(t, '/evolution/events?queueState=in_review')).body;
    expect(inReview.events.map((x: { id: string }) => x.id)).toContain(e.id);
    expect(inReview.events.every((x: { queueState: string }) => x.queueState === 'in_review')).toBe(true);
    const closed = (await get(t, '/evolution/events?status=closed')).body;
    expect(closed.total).toBeGreaterThan(0);
    expect(closed.events.every((x: { queueState: string }) => ['approved', 'rejected'].includes(x.queueState))).toBe(true);
    expect((await get(t, '/evolution/events?queueState=done')).status).toBe(400);
    expect(t.app.ctx.ledger.verify().ok).toBe(true);
  });
});
