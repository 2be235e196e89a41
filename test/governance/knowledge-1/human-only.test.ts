import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers.js';
import { appendApproval, client, HUMAN, NOT_HUMAN } from './client.js';

/*
 * The human-only rules of this part (state evolve, state rollback, graph node creation), each driven
 * with every kind of X-Actor: human and editorial pass, ai, system, a malformed value and a missing
 * header are refused with the endpoint's 422 code and write nothing.
 */

let t: TestApp;
let c: ReturnType<typeof client>;
let approvals = 0;
beforeAll(async () => {
  t = await makeApp();
  c = client(t);
  await c.post('/evolution/state', { objectId: 'concept.table', content: { v: 0 } }, 'system:seed');
});
afterAll(() => t.close());

interface Rule {
  name: string;
  code: string;
  /** Makes the call with the given X-Actor; a fresh approval each time so that only the actor decides. */
  call: (actor: string | undefined) => Promise<{ status: number; body: { error?: { code: string; message: string } } }>;
}

const RULES: Rule[] = [
  {
    name: 'POST /evolution/state/{id}/evolve',
    code: 'STATE_EVOLVE_DENIED',
    call: (actor) => {
      const ref = `ap_table_${++approvals}`;
      appendApproval(t, ref, 'concept.table');
      return c.post('/evolution/state/concept.table/evolve', { content: { v: approvals }, approvalRef: ref }, actor);
    },
  },
  {
    name: 'POST /evolution/state/{id}/rollback',
    code: 'STATE_ROLLBACK_DENIED',
    call: (actor) => c.post('/evolution/state/concept.table/rollback', { toVersion: 1 }, actor),
  },
  {
    name: 'POST /evolution/graph-evolution/node',
    code: 'GRAPH_NODE_DENIED',
    call: (actor) => c.post('/evolution/graph-evolution/node', { label: '中庸', nodeType: 'concept', rationale: 'Doctrine of the Mean is missing' }, actor),
  },
];

describe.each(RULES)('$name', ({ code, call }) => {
  it.each(NOT_HUMAN)(`refuses X-Actor %s with 422 ${code} and writes nothing`, async (_label, actor) => {
    const rowsBefore = c.rows();
    const { status, body } = await call(actor);
    expect(status).toBe(422);
    expect(body.error?.code).toBe(code);
    expect(body.error?.message).toMatch(/human/);
    // The approval appended by the call itself is the only new row.
    expect(c.rows()).toBe(rowsBefore + (code === 'STATE_EVOLVE_DENIED' ? 1 : 0));
  });

  it.each(HUMAN)('accepts X-Actor %s and records it as the author', async (_label, actor) => {
    const { status, body } = (await call(actor)) as { status: number; body: Record<string, { updatedBy: string }> };
    expect(status).toBe(201);
    const written = body.next ?? body.rolledBack ?? body.node;
    expect(written?.updatedBy).toBe(actor);
  });
});
