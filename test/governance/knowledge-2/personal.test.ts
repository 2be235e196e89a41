import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND } from '../../../src/governance/kinds.js';
import { logCapture, makeApp, type TestApp } from '../../helpers.js';
import { allBodies, expectRefused, get, post, rows } from './helpers.js';

let t: TestApp;
const logs = logCapture();
beforeAll(async () => {
  t = await makeApp({ logLevel: 'info' }, logs.stream);
});
afterAll(() => t.close());

const event = (extra: Record<string, unknown> = {}) => ({
  owner: 'user-17',
  permission: 'analyze',
  sharingScope: 'product',
  kind: 'interest_shift',
  summary: 'moved from the Analects to the Daodejing',
  evidence: ['reading history: 12 Daodejing passages this month'],
  ...extra,
});
const change = (extra: Record<string, unknown> = {}) => ({
  owner: 'user-17',
  changeType: 'interest',
  description: 'reads Buddhist texts more than before',
  evidence: ['saved 5 Diamond Sutra passages'],
  ...extra,
});

describe('POST /evolution/personal-evolution', () => {
  it('records an event with its privacy status', async () => {
    const r = await post(t, '/evolution/personal-evolution', event(), 'system:product-a');
    expect(r.status).toBe(201);
    expect(r.body.event).toMatchObject({ ...event(), privacyStatus: 'restricted', recordedBy: 'system:product-a' });
    expect(t.app.ctx.ledger.latest(KIND.personalEvent, r.body.event.id)).toBeDefined();
  });

  it.each([
    ['store', 'aggregate', 'private'],
    ['share', 'private', 'private'],
    ['share', 'product', 'shared'],
    ['analyze', 'aggregate', 'restricted'],
  ])('permission %s with sharingScope %s is %s', async (permission, sharingScope, privacyStatus) => {
    const r = await post(t, '/evolution/personal-evolution', event({ permission, sharingScope }), 'human:user-17');
    expect(r.body.event.privacyStatus).toBe(privacyStatus);
  });

  it.each(['owner', 'permission', 'sharingScope'])('refuses with 422 PERSONAL_EVENT_REJECTED without %s', async (field) => {
    const r = await expectRefused(t, () => post(t, '/evolution/personal-evolution', event({ [field]: undefined }), 'human:user-17'), 422, 'PERSONAL_EVENT_REJECTED');
    expect(r.body.error.message).toMatch(field);
  });

  it('refuses a permission or scope outside the documented sets, and a missing X-Actor', async () => {
    await expectRefused(t, () => post(t, '/evolution/personal-evolution', event({ permission: 'everything' }), 'human:user-17'), 422, 'PERSONAL_EVENT_REJECTED');
    await expectRefused(t, () => post(t, '/evolution/personal-evolution', event({ sharingScope: 'world' }), 'human:user-17'), 422, 'PERSONAL_EVENT_REJECTED');
    await expectRefused(t, () => post(t, '/evolution/personal-evolution', event()), 422, 'PERSONAL_EVENT_REJECTED');
  });

  const MARKER = 'MARKER-7f3a-raw-transcript';
  it.each([
    ['transcript', { transcript: `user: ${MARKER}` }],
    ['rawTranscript', { rawTranscript: MARKER }],
    ['messages', { messages: [{ role: 'user', content: MARKER }] }],
    ['conversation', { conversation: MARKER }],
    ['a nested transcript field', { evidence: [{ source: 'chat', raw_transcript: MARKER }] }],
    ['a string over 2000 characters', { summary: `${MARKER} ${'话'.repeat(2001)}` }],
  ])('refuses a raw transcript in %s and stores nothing of it', async (_name, extra) => {
    const r = await expectRefused(t, () => post(t, '/evolution/personal-evolution', event(extra), 'human:user-17'), 422, 'PERSONAL_EVENT_REJECTED');
    expect(r.body.error.message).toMatch(/transcript/);
    expect(JSON.stringify(r.body)).not.toContain(MARKER);
    expect(allBodies(t)).not.toContain(MARKER);
    expect(logs.text()).not.toContain(MARKER);
  });

  it('accepts a summary of exactly 2000 characters', async () => {
    expect((await post(t, '/evolution/personal-evolution', event({ summary: '话'.repeat(2000) }), 'human:user-17')).status).toBe(201);
  });
});

describe('GET /evolution/personal-evolution', () => {
  it('lists events filtered by owner and privacyStatus', async () => {
    await post(t, '/evolution/personal-evolution', event({ owner: 'user-99', permission: 'share', sharingScope: 'aggregate' }), 'human:user-99');
    const all = (await get(t, '/evolution/personal-evolution')).body;
    expect(all.total).toBe(all.events.length);
    expect(all.total).toBe(t.app.ctx.ledger.current(KIND.personalEvent).length);
    const mine = (await get(t, '/evolution/personal-evolution?owner=user-99')).body;
    expect(mine.total).toBe(1);
    expect(mine.events[0]).toMatchObject({ owner: 'user-99', privacyStatus: 'shared' });
    const privateOnes = (await get(t, '/evolution/personal-evolution?privacyStatus=private')).body;
    expect(privateOnes.total).toBeGreaterThan(0);
    expect(privateOnes.events.every((e: { privacyStatus: string }) => e.privacyStatus === 'private')).toBe(true);
    expect((await get(t, '/evolution/personal-evolution?privacyStatus=secret')).status).toBe(400);
  });
});

describe('POST /evolution/personal-evolution/behavior-change', () => {
  it.each(['interest', 'demand', 'learning_pattern'])('records a %s change with its evidence', async (changeType) => {
    const r = await post(t, '/evolution/personal-evolution/behavior-change', change({ changeType }), 'ai:pattern');
    expect(r.status).toBe(201);
    expect(r.body.signal).toMatchObject({ ...change({ changeType }), status: 'recorded', issueCandidateId: null });
    expect(t.app.ctx.ledger.latest(KIND.behaviorSignal, r.body.signal.id)).toBeDefined();
  });

  it.each([
    ['evidence missing', { evidence: undefined }],
    ['evidence empty', { evidence: [] }],
    ['another changeType', { changeType: 'mood' }],
    ['description missing', { description: undefined }],
    ['a raw transcript', { messages: ['hi'] }],
  ])('refuses with 422 BEHAVIOR_CHANGE_REJECTED for %s', async (_name, extra) => {
    await expectRefused(t, () => post(t, '/evolution/personal-evolution/behavior-change', change(extra), 'ai:pattern'), 422, 'BEHAVIOR_CHANGE_REJECTED');
  });
});

describe('POST /evolution/personal-evolution/behavior-signals/{id}/handoff', () => {
  it('hands a signal off once, as an issue candidate without the owner', async () => {
    const signal = (await post(t, '/evolution/personal-evolution/behavior-change', change({ owner: 'user-secret-42', changeType: 'demand' }), 'ai:pattern')).body.signal;
    await expectRefused(t, () => post(t, `/evolution/personal-evolution/behavior-signals/${signal.id}/handoff`), 422, 'BEHAVIOR_HANDOFF_DENIED');
    const r = await post(t, `/evolution/personal-evolution/behavior-signals/${signal.id}/handoff`, {}, 'system:router');
    expect(r.status).toBe(201);
    expect(r.body.signal).toMatchObject({ id: signal.id, status: 'handed_off', issueCandidateId: r.body.issueCandidate.id });
    expect(r.body.issueCandidate).toMatchObject({ objectId: 'personal-evolution:demand', problemKind: 'behavior:demand', status: 'open', priority: null, channels: ['handoff'] });
    expect(r.body.issueCandidate.refs).toContainEqual(expect.objectContaining({ channel: 'handoff', ref: signal.id }));
    expect(JSON.stringify(t.app.ctx.ledger.latest(KIND.issueCandidate, r.body.issueCandidate.id))).not.toContain('user-secret-42');
    await expectRefused(t, () => post(t, `/evolution/personal-evolution/behavior-signals/${signal.id}/handoff`, {}, 'human:ann'), 422, 'BEHAVIOR_HANDOFF_DENIED');
    const missing = await expectRefused(t, () => post(t, '/evolution/personal-evolution/behavior-signals/bs_missing/handoff', {}, 'human:ann'), 404, 'NOT_FOUND');
    expect(missing.body.error.message).toMatch('bs_missing');
    expect(rows(t)).toBeGreaterThan(0);
    expect(t.app.ctx.ledger.verify().ok).toBe(true);
  });
});
