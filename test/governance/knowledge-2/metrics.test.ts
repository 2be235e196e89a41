import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibrary, type Library } from '../../../src/classics/library.js';
import { KIND } from '../../../src/governance/kinds.js';
import { makeApp, type TestApp } from '../../helpers.js';
import { get, post } from './helpers.js';

let t: TestApp;
let lib: Library;
beforeAll(async () => {
  t = await makeApp();
  lib = openLibrary(t.config.packsDir);
});
afterAll(() => t.close());

const metrics = async () => {
  const r = await get(t, '/evolution/metrics');
  expect(r.status).toBe(200);
  return r.body;
};

describe('GET /evolution/metrics', () => {
  it('says a score is not truth, and leaves ratios without a denominator null', async () => {
    const body = await metrics();
    expect(body.note).toBe('a score is not truth');
    expect(body.releaseId).toBe(lib.releaseId);
    expect(body.metrics.acceptance).toMatchObject({ value: null, numerator: 0, denominator: 0 });
    expect(body.metrics.conflictResolution).toMatchObject({ value: null, numerator: 0, denominator: 0 });
    expect(body.metrics.eventApproval).toMatchObject({ value: null, numerator: 0, denominator: 0 });
    expect(body.metrics.trustStability).toMatchObject({ value: 1, numerator: lib.knowledge.claims.length, denominator: lib.knowledge.claims.length, changedClaimIds: [] });
  });

  it('computes each metric from the records on the ledger', async () => {
    const ledger = t.app.ctx.ledger;
    const [trustClaim, textClaim, fieldClaim] = lib.knowledge.claims;
    // Conflicts: two registered, one resolved with KEEP_MULTIPLE.
    const body = { topic: 't', objectIds: [trustClaim!.id], description: 'd' };
    const a = (await post(t, '/evolution/conflicts', body, 'ai:x')).body.conflict;
    await post(t, '/evolution/conflicts', body, 'ai:x');
    await post(t, `/evolution/conflicts/${a.id}/resolve`, { outcome: 'KEEP_MULTIPLE', rationale: 'both hold' }, 'human:ann');
    // Evolution candidates: four, three approved; c1 and c4 change a trust level (c4 in the
    // {field, from, to} shape of the evolution candidates endpoint), c2 does not, c3 is not approved.
    ledger.append({ kind: KIND.evolutionCandidate, recordId: 'c1', actor: 'ai:x', body: { objectId: trustClaim!.id, proposed: { trust_level: 'T3' } } });
    ledger.append({ kind: KIND.evolutionCandidate, recordId: 'c2', actor: 'ai:x', body: { objectId: textClaim!.id, proposed: { statement_en: 'reworded' } } });
    ledger.append({ kind: KIND.evolutionCandidate, recordId: 'c3', actor: 'ai:x', body: { objectId: textClaim!.id, proposed: { trust_level: 'T4' } } });
    ledger.append({
      kind: KIND.evolutionCandidate,
      recordId: 'c4',
      actor: 'ai:x',
      body: { targetKind: 'claim', targetId: fieldClaim!.id, change: { field: 'trust_level', from: fieldClaim!.trust_level, to: 'T4' } },
    });
    for (const [id, candidateId, targetId] of [['ap1', 'c1', trustClaim!.id], ['ap2', 'c2', textClaim!.id], ['ap4', 'c4', fieldClaim!.id]] as const) {
      ledger.append({ kind: KIND.approval, recordId: id, actor: 'human:ann', body: { targetKind: 'claim', targetId, revision: 'r', candidateId, approvedBy: 'human:ann' } });
    }
    // Events: one approved, one rejected, one still queued.
    const ids = [];
    for (const seq of [1, 2, 3]) ids.push((await post(t, '/evolution/events', { kind: 'change', objectId: 'o', payload: { seq }, evidence: ['e'] }, 'system:x')).body.event.id);
    await post(t, `/evolution/events/${ids[0]}/transition`, { to: 'in_review' }, 'human:ann');
    ledger.append({ kind: KIND.approval, recordId: 'ap3', actor: 'human:ann', body: { targetKind: 'event', targetId: ids[0], revision: 'x', candidateId: 'c9', approvedBy: 'human:ann' } });
    await post(t, `/evolution/events/${ids[0]}/transition`, { to: 'approved', approvalRef: 'ap3' }, 'human:ann');
    await post(t, `/evolution/events/${ids[1]}/transition`, { to: 'rejected' }, 'human:ann');

    const m = (await metrics()).metrics;
    expect(m.conflictResolution).toMatchObject({ value: 0.5, numerator: 1, denominator: 2, byOutcome: { KEEP_MULTIPLE: 1 } });
    expect(m.acceptance).toMatchObject({ value: 3 / 4, numerator: 3, denominator: 4 });
    const claims = lib.knowledge.claims.length;
    expect(m.trustStability).toMatchObject({ numerator: claims - 2, denominator: claims, changedClaimIds: [trustClaim!.id, fieldClaim!.id].sort() });
    expect(m.trustStability.value).toBeCloseTo((claims - 2) / claims);
    expect(m.eventApproval).toMatchObject({ value: 0.5, numerator: 1, denominator: 2 });

    const kindsWithRows = Object.values(KIND).filter((k) => ledger.count(k) > 0);
    expect(m.freshness).toMatchObject({ numerator: kindsWithRows.length, denominator: kindsWithRows.length, value: 1, windowDays: 30 });
    const approvals = m.freshness.perKind.find((k: { kind: string }) => k.kind === KIND.approval);
    expect(approvals).toMatchObject({ rows: 4, newestAt: ledger.list(KIND.approval, { limit: 1 })[0]!.createdAt });
    expect(approvals.ageSeconds).toBeLessThan(60);
    for (const f of Object.values(m) as { formula: string }[]) expect(f.formula.length).toBeGreaterThan(10);
  });
});
