import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers.js';
import { appendApproval, client } from './client.js';

/* A sequence over all four areas: every write is a ledger row, the chain verifies, no row changes. */

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await makeApp();
  c = client(t);
});
afterAll(() => t.close());

describe('the ledger under a sequence of knowledge-evolution calls', () => {
  it('appends one row per record write, never changes or removes one, and verifies', async () => {
    const start = c.chain();
    const expectStatus = async (call: Promise<{ status: number }>, status: number) => expect((await call).status).toBe(status);

    const change = (await c.post('/evolution/change-signals', { objectId: 'ddj.8', before: '不争', after: '不爭', source: 'ocr' }, 'system:ocr')).body.signal;
    const real = (await c.post('/evolution/change-signals', { objectId: 'ddj.8', before: '不争', after: '无争', source: 'ocr' }, 'system:ocr')).body.signal;
    await expectStatus(c.post(`/evolution/change-signals/${real.id}/handoff`), 201);
    await expectStatus(c.post('/evolution/state', { objectId: 'concept.li', content: { zh: '礼' } }, 'human:ann'), 201);
    appendApproval(t, 'ap_li', 'concept.li');
    await expectStatus(c.post('/evolution/state/concept.li/evolve', { content: { zh: '礼', en: 'ritual propriety' }, approvalRef: 'ap_li' }, 'human:ann'), 201);
    await expectStatus(c.post('/evolution/state/concept.li/rollback', { toVersion: 1 }, 'human:ann'), 201);
    const signal = (await c.post('/evolution/semantic-drift', { objectId: 'concept.li', layer: 'practical', driftKind: 'narrowing', grounds: [{ type: 'commentary', ref: 'Zhu Xi' }] })).body.signal;
    await expectStatus(c.post(`/evolution/semantic-drift/${signal.id}/handoff`), 201);
    await expectStatus(c.post('/evolution/graph-evolution/node', { label: '礼乐', nodeType: 'concept', rationale: 'r' }, 'human:ann'), 201);
    const proposal = (await c.post('/evolution/graph-evolution/expansion', { expansionKind: 'new_node', label: '乐', description: 'music' }, 'ai')).body.proposal;
    await expectStatus(c.post(`/evolution/graph-evolution/proposals/${proposal.id}/handoff`), 201);

    // Refused calls in between write nothing.
    const beforeRefusals = c.rows();
    await expectStatus(c.post(`/evolution/change-signals/${change.id}/handoff`), 422);
    await expectStatus(c.post('/evolution/state/concept.li/evolve', { content: { x: 1 }, approvalRef: 'ap_li' }, 'human:ann'), 422);
    await expectStatus(c.post('/evolution/state/concept.li/rollback', { toVersion: 1 }, 'ai:model'), 422);
    await expectStatus(c.post('/evolution/semantic-drift', { objectId: 'x', layer: 'lexical', driftKind: 'broadening', grounds: [{ type: 'similarity' }] }), 422);
    await expectStatus(c.post('/evolution/graph-evolution/node', { label: 'x', nodeType: 'concept', rationale: 'r' }, 'system'), 422);
    await expectStatus(c.post(`/evolution/graph-evolution/proposals/${proposal.id}/handoff`), 422);
    expect(c.rows()).toBe(beforeRefusals);

    const end = c.chain();
    // 2 change signals + handoff (issue + signal) + 3 state versions + approval + drift + handoff (issue + signal)
    // + node + proposal + handoff (issue + proposal)
    expect(end.length - start.length).toBe(2 + 2 + 3 + 1 + 1 + 2 + 1 + 1 + 2);
    expect(end.slice(0, start.length)).toEqual(start);
    const verify = t.app.ctx.ledger.verify();
    expect(verify).toMatchObject({ ok: true, rows: end.length });
    // Handoffs appended new versions; the first versions are still there, unchanged.
    expect(end.filter((r) => r.record_id === real.id).map((r) => r.version)).toEqual([1, 2]);
  });
});
