import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND } from '../../../src/governance/kinds.js';
import { auth } from '../../helpers.js';
import { makeRuntimeApp, RUNTIME, type RuntimeTestApp } from './helpers.js';

let t: RuntimeTestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;
beforeAll(async () => {
  t = await makeRuntimeApp();
  alice = auth(t.app.ctx.keys.create('alice', 'classics', ['read']).key);
  bob = auth(t.app.ctx.keys.create('bob', 'classics', ['read']).key);
});
afterAll(() => t.close());

const ORCHESTRATE = '/api/classics/v1/orchestrate';
const REFERENCES = '/api/personal-graph/v1/references';
const orchestrate = (payload: Record<string, unknown>, headers?: Record<string, string>) => t.post(ORCHESTRATE, { productId: 'daily-reflection', ...payload }, headers);

describe('POST /orchestrate', () => {
  it('routes a situational question to explore and report_support, with a trace of every step and an explanation', async () => {
    const { status, body } = await orchestrate({ question: 'I feel drained by my job every day' });
    expect(status).toBe(200);
    expect(body.intent).toMatchObject({ kind: 'situational', lang: 'en', gate: { allowed: true, category: null } });
    expect(body.routePlan.modes).toEqual(['explore', 'report_support']);
    expect(body.routePlan.calls.map((c: { order: number; request: { productId: string } }) => [c.order, c.request.productId])).toEqual([
      [1, 'daily-reflection'],
      [2, 'daily-reflection'],
    ]);
    expect(body.selection).toMatchObject({ knowledgePackIds: ['daodejing', 'analects', 'yijing', 'diamond-sutra'], reason: expect.stringMatching(/Daily Reflection/), personalContext: null });
    expect(body.routePlan.calls.every((c: { request: { knowledgePackIds: string[] } }) => c.request.knowledgePackIds.length === 4)).toBe(true);
    expect(body.assembled.map((a: { mode: string; status: string }) => [a.mode, a.status])).toEqual([
      ['explore', 'ok'],
      ['report_support', 'ok'],
    ]);
    expect(body.assembled[0].result.matchedSituations[0].id).toBe('situation.work.burnout');
    expect(body.assembled[1].result.synthesized).toBeDefined();
    expect(body.trace.map((s: { step: string }) => s.step)).toEqual(['intent', 'route', 'plan', 'select', 'assemble', 'trace']);
    for (const s of body.trace) {
      expect(s.durationMs).toBeGreaterThanOrEqual(0);
      expect(s.detail.length).toBeGreaterThan(0);
    }
    expect(body.explanation).toMatch(/situational/);
    expect(body.explanation).toMatch(/explore then report_support/);
    expect(body.explanation).toMatch(/Daily Reflection/);
  });

  it('routes a comparative question to compare, never equating what the packs keep apart', async () => {
    const { body } = await orchestrate({ question: 'Is wu wei the same as laziness?' });
    expect(body.intent.kind).toBe('comparative');
    expect(body.routePlan.modes).toEqual(['compare']);
    expect(body.assembled[0].result.compare.equivalence).toBe('non_equivalent');
  });

  it('selects the packs a question names', async () => {
    const { body } = await orchestrate({ question: 'What does the Analects say about learning?', productId: 'unknown-product' });
    expect(body.selection.knowledgePackIds).toEqual(['analects', 'core']);
    expect(body.selection.reason).toMatch(/names analects/);
  });

  it('routes nothing when the Gate blocks the question', async () => {
    const { status, body } = await orchestrate({ question: 'Cast a hexagram for my marriage.' });
    expect(status).toBe(200);
    expect(body.intent).toMatchObject({ kind: 'blocked', gate: { allowed: false, category: 'divination' } });
    expect(body.routePlan.calls).toEqual([]);
    expect(body.assembled).toEqual([]);
    expect(body.explanation).toMatch(/Gate blocked/);
  });

  it('replays a stored answer exactly and reports a MISS for an unknown snapshot, never answering afresh', async () => {
    const live = (await orchestrate({ question: 'What is wu wei?' })).body;
    const hit = await orchestrate({ question: 'something else entirely', historicalSnapshotId: live.snapshotId });
    expect(hit.status).toBe(200);
    expect(hit.body.replay).toMatchObject({ status: 'HIT', snapshotId: live.snapshotId, kind: 'orchestrate' });
    expect(JSON.parse(hit.body.replay.payload)).toEqual(live);
    const miss = await orchestrate({ question: 'What is wu wei?', historicalSnapshotId: 'snap_does_not_exist' });
    expect(miss.status).toBe(200);
    expect(miss.body).toEqual({ replay: { status: 'MISS', snapshotId: 'snap_does_not_exist', message: expect.stringMatching(/never falls back/) } });
  });

  it("takes the caller's own personal-graph reference as context and refuses anyone else's with 400", async () => {
    const saved = await t.post(REFERENCES, { objectId: 'ddj.8', note: 'water' }, alice);
    expect(saved.status).toBe(200);
    const ref = saved.body.reference.id;

    const own = await orchestrate({ question: 'What is wu wei?', personalContextRef: ref }, alice);
    expect(own.status).toBe(200);
    expect(own.body.selection.personalContext).toEqual({ referenceId: ref, objectId: 'ddj.8', note: 'water' });
    const context = own.body.routePlan.calls.at(-1);
    expect(context).toMatchObject({ mode: 'lookup', request: { objectId: 'ddj.8' } });
    expect(own.body.assembled.at(-1)).toMatchObject({ mode: 'lookup', status: 'ok' });

    const other = await orchestrate({ question: 'What is wu wei?', personalContextRef: ref }, bob);
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/^body\.personalContextRef: .* is not a personal-graph reference of bob/);
    expect((await orchestrate({ question: 'What is wu wei?', personalContextRef: 'pr_unknown' }, alice)).status).toBe(400);

    const tokenWithoutOwner = await orchestrate({ question: 'What is wu wei?', personalContextRef: ref });
    expect(tokenWithoutOwner.status).toBe(400);
    expect(tokenWithoutOwner.body.error.message).toMatch(/^body\.owner: a service token must name the owner/);
    expect((await orchestrate({ question: 'What is wu wei?', personalContextRef: ref, owner: 'alice' })).status).toBe(200);
    expect((await orchestrate({ question: 'What is wu wei?', personalContextRef: ref, owner: 'bob' })).status).toBe(400);
  });
});

describe('POST /feedback', () => {
  it('acknowledges and files an issue candidate, without changing the knowledge', async () => {
    const lookup = { runtimeMode: 'lookup', productId: 'x', objectId: 'concept.wuwei' };
    const before = (await t.post(RUNTIME, lookup)).body;
    const packsBefore = (await t.get('/api/classics/v1/packs')).body;

    const { status, body } = await t.post('/api/classics/v1/feedback', { text: 'The gloss of wu wei reads like doing nothing.', rating: 1, targetIds: ['concept.wuwei'], productId: 'e-reader' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ received: true, feedbackId: expect.stringMatching(/^fb_/), issueCandidateId: expect.stringMatching(/^ic_/), note: expect.stringMatching(/never changes the knowledge/) });

    const issue = t.app.ctx.ledger.latest(KIND.issueCandidate, body.issueCandidateId)!.body as Record<string, unknown>;
    expect(issue).toMatchObject({ objectId: 'concept.wuwei', problemKind: 'feedback.low-rating', status: 'open', channels: ['feedback'], count: 1 });
    expect(t.app.ctx.ledger.latest(KIND.feedback, body.feedbackId)!.body).toMatchObject({ rating: 1, targetIds: ['concept.wuwei'], issueCandidateIds: [body.issueCandidateId] });

    const again = (await t.post('/api/classics/v1/feedback', { text: 'Still reads like idleness.', rating: 2, targetIds: ['concept.wuwei'] })).body;
    expect(again.issueCandidateId).toBe(body.issueCandidateId);
    expect((t.app.ctx.ledger.latest(KIND.issueCandidate, body.issueCandidateId)!.body as { count: number }).count).toBe(2);

    expect((await t.post(RUNTIME, lookup)).body).toEqual(before);
    expect((await t.get('/api/classics/v1/packs')).body).toEqual(packsBefore);
  });

  it('files feedback without targets against the product, or as general feedback', async () => {
    const product = (await t.post('/api/classics/v1/feedback', { text: 'Lovely app', rating: 5, productId: 'daily-reflection' })).body;
    expect(t.app.ctx.ledger.latest(KIND.issueCandidate, product.issueCandidateId)!.body).toMatchObject({ objectId: 'product:daily-reflection', problemKind: 'feedback' });
    const general = (await t.post('/api/classics/v1/feedback', { text: 'Thanks' })).body;
    expect(t.app.ctx.ledger.latest(KIND.issueCandidate, general.issueCandidateId)!.body).toMatchObject({ objectId: 'feedback:general' });
    const two = (await t.post('/api/classics/v1/feedback', { text: 'Both are off', targetIds: ['ddj.8', 'ddj.9'] })).body;
    expect(two.issueCandidateIds).toHaveLength(2);
  });

  it('answers 400 naming text when it is missing', async () => {
    const { status, body } = await t.post('/api/classics/v1/feedback', { rating: 3 });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^body\.text/);
  });
});
