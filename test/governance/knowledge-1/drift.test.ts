import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers.js';
import { client } from './client.js';

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await makeApp();
  c = client(t);
});
afterAll(() => t.close());

const USAGE = { type: 'usage', ref: 'modern self-help corpus', note: '无为 used as "do nothing, relax"' };
const SIMILARITY = { type: 'similarity', ref: 'embedding', score: 0.91 };
const drift = (payload: Record<string, unknown>, actor = 'ai:drift-watch') =>
  c.post('/evolution/semantic-drift', { objectId: 'claim.lunyu.1.1.3', layer: 'interpretive', driftKind: 'reinterpretation', grounds: [USAGE], ...payload }, actor);

describe('POST /evolution/semantic-drift', () => {
  it('records a grounded drift signal (an ai may detect)', async () => {
    const { status, body } = await drift({ objectId: 'ddj.48', layer: 'practical', driftKind: 'pejoration', grounds: [USAGE, SIMILARITY], domain: 'textual' });
    expect(status).toBe(201);
    expect(body.accepted).toBe(true);
    expect(body.signal).toMatchObject({
      objectId: 'ddj.48',
      objectKind: 'passage',
      layer: 'practical',
      driftKind: 'pejoration',
      accepted: true,
      status: 'open',
      requiresHumanReview: false,
      reviewReasons: [],
      updatedBy: 'ai:drift-watch',
    });
    expect(body.signal.grounds).toHaveLength(2);
  });

  it.each([
    ['only similarity grounds', { grounds: [SIMILARITY, { ...SIMILARITY, ref: 'co-occurrence' }] }, /similarity is not meaning/],
    ['no grounds', { grounds: [] }, /grounds/],
    ['grounds missing', { grounds: undefined }, /grounds/],
    ['a usage ground with neither ref nor note', { grounds: [{ type: 'usage' }] }, /neither a ref nor a note/],
    ['no layer', { layer: undefined }, /layer/],
    ['no driftKind', { driftKind: undefined }, /driftKind/],
    ['no objectId', { objectId: undefined }, /objectId/],
  ])('refuses %s with 422 DRIFT_DETECTION_REJECTED, writing nothing', async (_name, payload, message) => {
    const rowsBefore = c.rows();
    const { status, body } = await drift(payload);
    expect(status).toBe(422);
    expect(body.error.code).toBe('DRIFT_DETECTION_REJECTED');
    expect(body.error.message).toMatch(message);
    expect(c.rows()).toBe(rowsBefore);
  });

  it.each([
    ['an unknown layer', { layer: 'spiritual' }],
    ['an unknown drift kind', { driftKind: 'drifting' }],
    ['an unknown ground type', { grounds: [{ type: 'vibes', note: 'x' }] }],
  ])('answers 400 for %s', async (_name, payload) => {
    expect((await drift(payload)).status).toBe(400);
  });

  it.each([
    ['domain cultural', { objectId: 'ddj.20', domain: 'cultural' }, /cultural/],
    ['domain philosophical', { objectId: 'ddj.21', domain: 'philosophical' }, /philosophical/],
    ['a concept object', { objectId: 'concept.wuwei', layer: 'conceptual', driftKind: 'narrowing' }, /concept/],
  ])('marks %s for human review', async (_name, payload, reason) => {
    const { body } = await drift(payload);
    expect(body.signal.requiresHumanReview).toBe(true);
    expect(body.signal.reviewReasons.join(' ')).toMatch(reason);
  });

  it('records a repeat of the same object, layer and kind as accepted: false', async () => {
    const first = (await drift({ objectId: 'lunyu.2.4', layer: 'lexical', driftKind: 'broadening' })).body.signal;
    const again = (await drift({ objectId: 'lunyu.2.4', layer: 'lexical', driftKind: 'broadening', grounds: [{ type: 'citation', ref: 'lunyu.2.4' }] })).body;
    expect(again.accepted).toBe(false);
    expect(again.signal).toMatchObject({ status: 'filtered', filter: { reason: 'duplicate', duplicateOf: first.id } });
    expect((await drift({ objectId: 'lunyu.2.4', layer: 'lexical', driftKind: 'narrowing' })).body.accepted).toBe(true);
  });
});

describe('GET /evolution/semantic-drift', () => {
  it('lists signals with their total, filtered by status and layer', async () => {
    const all = (await c.get('/evolution/semantic-drift')).body;
    expect(all.total).toBe(all.signals.length);
    expect(all.total).toBeGreaterThanOrEqual(6);
    const lexical = (await c.get('/evolution/semantic-drift?layer=lexical')).body;
    expect(lexical.total).toBe(all.signals.filter((s: { layer: string }) => s.layer === 'lexical').length);
    const filtered = (await c.get('/evolution/semantic-drift?status=filtered')).body;
    expect(filtered.total).toBe(1);
  });
});

describe('POST /evolution/semantic-drift/{id}/handoff', () => {
  it('files an issue candidate through the system channel, carrying the review mark', async () => {
    const signal = (await drift({ objectId: 'concept.ren', layer: 'conceptual', driftKind: 'conflation', domain: 'philosophical' })).body.signal;
    const { status, body } = await c.post(`/evolution/semantic-drift/${signal.id}/handoff`, {}, 'ai:drift-watch');
    expect(status).toBe(201);
    expect(body.signal).toMatchObject({ id: signal.id, status: 'handed_off', issueCandidateId: body.issueCandidate.id });
    expect(body.issueCandidate).toMatchObject({ objectId: 'concept.ren', channels: ['system'], status: 'open', priority: null, problemKind: 'semantic-drift:conceptual:conflation' });
    expect(body.issueCandidate.summary).toMatch(/human review/i);
    expect(body.note).toMatch(/triage/);
  });

  it('refuses a filtered signal and a second handoff with 422 DRIFT_HANDOFF_DENIED, writing nothing', async () => {
    const filtered = (await c.get('/evolution/semantic-drift?status=filtered')).body.signals[0];
    const handed = (await c.get('/evolution/semantic-drift?status=handed_off')).body.signals[0];
    for (const id of [filtered.id, handed.id]) {
      const rowsBefore = c.rows();
      const { status, body } = await c.post(`/evolution/semantic-drift/${id}/handoff`);
      expect(status).toBe(422);
      expect(body.error.code).toBe('DRIFT_HANDOFF_DENIED');
      expect(c.rows()).toBe(rowsBefore);
    }
  });

  it('answers 404 for an unknown signal', async () => {
    expect((await c.post('/evolution/semantic-drift/sd_missing/handoff')).status).toBe(404);
  });
});
