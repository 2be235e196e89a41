import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, makeApp, TOKENS, type TestApp } from '../../helpers.js';
import { client } from './client.js';

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await makeApp();
  c = client(t);
});
afterAll(() => t.close());

const servedNode = async (id: string) => t.app.inject({ method: 'GET', url: `/api/classics/v2/graph/nodes/${id}`, headers: auth(TOKENS.classics) });
const neighbours = async (id: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/classics/v2/graph/nodes/${id}/neighbors?depth=1`, headers: auth(TOKENS.classics) })).json();

describe('POST /evolution/graph-evolution/node', () => {
  it('creates an unverified node that never enters the served graph', async () => {
    const { status, body } = await c.post('/evolution/graph-evolution/node', { label: '中庸', nodeType: 'concept', rationale: 'the Mean is cited by several claims', evidence: ['lunyu.6.29'] }, 'human:ann');
    expect(status).toBe(201);
    expect(body.node).toMatchObject({ label: '中庸', nodeType: 'concept', status: 'unverified', inServedGraph: false, updatedBy: 'human:ann', evidence: ['lunyu.6.29'] });
    expect(body.node.id).toMatch(/^gn_/);
    expect((await servedNode(body.node.id)).statusCode).toBe(404);
  });

  it('names served nodes with the same normalised label', async () => {
    const { body } = await c.post('/evolution/graph-evolution/node', { label: '無為 Non-coercive action', nodeType: 'concept', rationale: 'r' }, 'human:ann');
    expect(body.node.sameLabelAs).toEqual(['concept.wuwei']);
    expect(body.node.status).toBe('unverified');
  });

  it('answers 400 when label, nodeType or rationale is missing', async () => {
    for (const payload of [{ nodeType: 'concept', rationale: 'r' }, { label: 'x', rationale: 'r' }, { label: 'x', nodeType: 'concept' }, { label: 'x', nodeType: 'planet', rationale: 'r' }]) {
      const rowsBefore = c.rows();
      expect((await c.post('/evolution/graph-evolution/node', payload, 'human:ann')).status).toBe(400);
      expect(c.rows()).toBe(rowsBefore);
    }
  });
});

describe('POST /evolution/graph-evolution/correction and /expansion', () => {
  it('records an ai correction as a proposal and leaves the formal graph unchanged', async () => {
    const nodeBefore = (await servedNode('concept.wuwei')).json();
    const neighboursBefore = await neighbours('concept.wuwei');
    const { status, body } = await c.post(
      '/evolution/graph-evolution/correction',
      { targetId: 'concept.wuwei', description: 'the English label should be "effortless action"', proposedChange: { field: 'en', to: 'effortless action' } },
      'ai:model',
    );
    expect(status).toBe(200);
    expect(body.proposal).toMatchObject({
      proposalKind: 'correction',
      targetId: 'concept.wuwei',
      status: 'proposed',
      formalGraphChanged: false,
      unknownIds: [],
      proposedChange: { field: 'en', to: 'effortless action' },
      updatedBy: 'ai:model',
    });
    expect((await servedNode('concept.wuwei')).json()).toEqual(nodeBefore);
    expect(await neighbours('concept.wuwei')).toEqual(neighboursBefore);
  });

  it.each([
    ['new_node', { expansionKind: 'new_node', label: '诚', description: 'sincerity is missing' }],
    ['hidden_relation', { expansionKind: 'hidden_relation', sourceId: 'concept.wuwei', targetId: 'concept.ren', relationType: 'contrasts', description: 'contrast of ethics of action' }],
    ['missing_link', { expansionKind: 'missing_link', sourceId: 'concept.dao', targetId: 'ddj.1', relationType: 'key_passage', description: 'Daodejing 1 names the Dao' }],
  ])('records a %s expansion as a proposal', async (kind, payload) => {
    const neighboursBefore = await neighbours('concept.wuwei');
    const { status, body } = await c.post('/evolution/graph-evolution/expansion', payload, 'ai:model');
    expect(status).toBe(200);
    expect(body.proposal).toMatchObject({ proposalKind: 'expansion', expansionKind: kind, status: 'proposed', formalGraphChanged: false });
    expect(await neighbours('concept.wuwei')).toEqual(neighboursBefore);
  });

  it('names ids that are neither served nor created nodes', async () => {
    const { body } = await c.post('/evolution/graph-evolution/correction', { targetId: 'concept.nowhere', description: 'd' });
    expect(body.proposal.unknownIds).toEqual(['concept.nowhere']);
    expect(body.proposal.updatedBy).toMatch(/^key:/);
  });

  it('answers 400 without a description, or an expansion without expansionKind', async () => {
    expect((await c.post('/evolution/graph-evolution/correction', { targetId: 'concept.wuwei' })).status).toBe(400);
    expect((await c.post('/evolution/graph-evolution/expansion', { description: 'd' })).status).toBe(400);
  });
});

describe('GET /evolution/graph-evolution/proposals', () => {
  it('lists proposals with their total, filtered by kind and status', async () => {
    const all = (await c.get('/evolution/graph-evolution/proposals')).body;
    expect(all.total).toBe(5);
    expect(all.proposals).toHaveLength(5);
    expect((await c.get('/evolution/graph-evolution/proposals?proposalKind=expansion')).body.total).toBe(3);
    expect((await c.get('/evolution/graph-evolution/proposals?status=handed_off')).body.total).toBe(0);
  });
});

describe('POST /evolution/graph-evolution/proposals/{id}/handoff', () => {
  it('files an issue candidate through the system channel', async () => {
    const proposal = (await c.get('/evolution/graph-evolution/proposals?proposalKind=correction')).body.proposals[0];
    const { status, body } = await c.post(`/evolution/graph-evolution/proposals/${proposal.id}/handoff`, {}, 'ai:model');
    expect(status).toBe(201);
    expect(body.proposal).toMatchObject({ id: proposal.id, status: 'handed_off', issueCandidateId: body.issueCandidate.id, formalGraphChanged: false });
    expect(body.issueCandidate).toMatchObject({ objectId: 'concept.wuwei', problemKind: 'graph-correction', channels: ['system'], status: 'open', priority: null });
    expect((await c.get('/evolution/graph-evolution/proposals?status=handed_off')).body.total).toBe(1);
  });

  it('refuses a second handoff with 422 GRAPH_PROPOSAL_HANDOFF_DENIED, writing nothing', async () => {
    const handed = (await c.get('/evolution/graph-evolution/proposals?status=handed_off')).body.proposals[0];
    const rowsBefore = c.rows();
    const { status, body } = await c.post(`/evolution/graph-evolution/proposals/${handed.id}/handoff`);
    expect(status).toBe(422);
    expect(body.error.code).toBe('GRAPH_PROPOSAL_HANDOFF_DENIED');
    expect(c.rows()).toBe(rowsBefore);
  });

  it('answers 404 for an unknown proposal', async () => {
    expect((await c.post('/evolution/graph-evolution/proposals/gp_missing/handoff')).status).toBe(404);
  });
});
