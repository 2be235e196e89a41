import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND } from '../../../src/governance/kinds.js';
import { makeApp, type TestApp } from '../../helpers.js';
import { get, post, rows } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

const snapshot = () => t.app.ctx.db.prepare('SELECT seq, kind, record_id, version, actor, body, hash FROM ledger ORDER BY seq').all();

describe('the ledger under a sequence of calls', () => {
  it('verifies after any sequence, keeps every earlier row, and refused calls write nothing', async () => {
    const conflict = (await post(t, '/evolution/conflicts', { topic: 't', objectIds: ['x'], description: 'd' }, 'ai:x')).body.conflict;
    const event = (await post(t, '/evolution/events', { kind: 'graph', objectId: 'x', payload: {}, evidence: ['e'] }, 'system:x')).body.event;
    await post(t, '/evolution/audit', { operation: 'o', decision: 'd', evidence: ['e'], version: 'v1', logType: 'governance' }, 'human:ann');
    await post(t, '/evolution/personal-evolution', { owner: 'u', permission: 'store', sharingScope: 'private' }, 'human:u');
    const before = snapshot();
    const count = rows(t);

    const refused = [
      await post(t, `/evolution/conflicts/${conflict.id}/resolve`, { outcome: 'KEEP_MULTIPLE', rationale: 'r' }, 'ai:x'),
      await post(t, `/evolution/conflicts/${conflict.id}/perspectives`, { label: 'l', claim: 'c', evidence: [], limitingConditions: ['x'] }, 'ai:x'),
      await post(t, '/evolution/events', { kind: 'graph', objectId: 'x', payload: {} }, 'system:x'),
      await post(t, `/evolution/events/${event.id}/transition`, { to: 'approved', approvalRef: 'nope' }, 'human:ann'),
      await post(t, '/evolution/audit', { operation: 'o' }, 'human:ann'),
      await post(t, '/evolution/personal-evolution', { owner: 'u', permission: 'store', sharingScope: 'private', conversation: 'x' }, 'human:u'),
      await post(t, '/evolution/personal-evolution/behavior-change', { owner: 'u', changeType: 'mood', description: 'd', evidence: ['e'] }, 'human:u'),
    ];
    expect(refused.map((r) => r.status)).toEqual(Array(refused.length).fill(422));
    expect(rows(t)).toBe(count);

    // More accepted writes: every change appends, nothing earlier moves.
    await post(t, `/evolution/conflicts/${conflict.id}/resolve`, { outcome: 'KEEP_MULTIPLE', rationale: 'r' }, 'human:ann');
    await post(t, `/evolution/events/${event.id}/transition`, { to: 'in_review' }, 'ai:x');
    await get(t, '/evolution/metrics');
    expect(snapshot().slice(0, before.length)).toEqual(before);
    expect(rows(t)).toBe(count + 2);
    expect(t.app.ctx.ledger.history(KIND.knowledgeConflict, conflict.id).map((r) => r.version)).toEqual([1, 2]);
    const verify = t.app.ctx.ledger.verify();
    expect(verify).toMatchObject({ ok: true, rows: count + 2 });
  });
});
