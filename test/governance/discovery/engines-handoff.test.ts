import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssueCandidates } from '../../../src/governance/issue-candidates.js';
import { KIND } from '../../../src/governance/kinds.js';
import { ServiceError } from '../../../src/platform/errors.js';
import { makeApp, type TestApp } from '../../helpers.js';
import { client, ledgerCount } from './helpers.js';

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await makeApp();
  c = client(t);
});
afterAll(() => t.close());

let n = 0;
const newCandidate = async (objectId = `concept.confucian.topic-${++n}`) => (await c.post('/signals', { objectId, kind: 'missing_relation', summary: `relation between ren and ${objectId}` })).body.candidate;
const accepted = async () => {
  const candidate = await newCandidate();
  for (const to of ['screening', 'qualified', 'accepted_for_governance']) expect((await c.post(`/candidates/${candidate.id}/transition`, { to }, 'human:ann')).status).toBe(200);
  return candidate;
};

describe('POST /discovery/engine/relation', () => {
  const relation = { from: 'concept.wuwei', to: 'concept.li-ritual', similarity: ['both restrain forced action'] };

  it('records a relation proposal that carries difference and non-equivalence, never formal', async () => {
    const { status, body } = await c.post('/engine/relation', { ...relation, difference: ['wu wei drops effort; li shapes it'], nonEquivalence: ['non-action is not ritual propriety'] }, 'ai:analyst');
    expect(status).toBe(200);
    expect(body.proposal).toMatchObject({ engine: 'relation', status: 'proposed', formal: false, from: relation.from, to: relation.to, difference: ['wu wei drops effort; li shapes it'], updatedBy: 'ai:analyst' });
    expect(body.proposal.known).toEqual({ from: true, to: true });
    expect(t.app.ctx.ledger.latest(KIND.discoveryProposal, body.proposal.id)).toBeDefined();
  });

  it.each([
    ['similarity alone', {}],
    ['no non-equivalence', { difference: ['one'] }],
    ['no difference', { nonEquivalence: ['one'] }],
    ['blank statements', { difference: ['  '], nonEquivalence: [''] }],
  ])('refuses %s with 422 RELATION_PROPOSAL_REJECTED', async (_label, extra) => {
    const before = ledgerCount(t);
    const { status, body } = await c.post('/engine/relation', { ...relation, ...extra });
    expect(status).toBe(422);
    expect(body.error.code).toBe('RELATION_PROPOSAL_REJECTED');
    expect(body.error.message).toMatch(/similarity is not a relation/);
    expect(ledgerCount(t)).toBe(before);
  });

  it('refuses a relation of a subject with itself', async () => {
    const { status, body } = await c.post('/engine/relation', { from: 'Dao', to: ' dao ', difference: ['x'], nonEquivalence: ['y'] });
    expect(status).toBe(422);
    expect(body.error.code).toBe('RELATION_PROPOSAL_REJECTED');
  });
});

describe('POST /discovery/engine/conflict and /engine/gap', () => {
  it('marks a conflict and never resolves it, whatever the request asks', async () => {
    const { status, body } = await c.post('/engine/conflict', {
      subject: 'Analects 2.4',
      positions: [{ statement: '耳顺 means hearing without resistance' }, { statement: '耳顺 means understanding what is heard', evidence: [{ kind: 'document', ref: 'Zhu Xi commentary' }] }],
      resolution: 'KEEP_ONE',
      resolved: true,
    });
    expect(status).toBe(200);
    expect(body.proposal).toMatchObject({ engine: 'conflict', status: 'marked', resolved: false, resolution: null, formal: false });
    expect(body.proposal.positions).toHaveLength(2);
    expect(t.app.ctx.ledger.latest(KIND.discoveryProposal, body.proposal.id)!.body).toMatchObject({ resolved: false, resolution: null });
  });

  it('needs two positions to mark a conflict', async () => {
    const { status } = await c.post('/engine/conflict', { subject: 'x', positions: [{ statement: 'only one' }] });
    expect(status).toBe(400);
  });

  it('annotates a gap and never fills it, whatever the request carries', async () => {
    const { status, body } = await c.post('/engine/gap', { subject: 'concept.buddhist.emptiness', missing: 'no Madhyamaka source for 空', expectedIn: 'diamond-sutra', fill: 'Nagarjuna says...' });
    expect(status).toBe(200);
    expect(body.proposal).toMatchObject({ engine: 'gap', status: 'annotated', filled: false, fill: null, missing: 'no Madhyamaka source for 空', expectedIn: 'diamond-sutra' });
  });

  it('answers 400 (no 422 in the contract) for a malformed X-Actor or an unknown candidateRef', async () => {
    expect((await c.post('/engine/gap', { subject: 'x', missing: 'y' }, 'robot:x')).status).toBe(400);
    expect((await c.post('/engine/gap', { subject: 'x', missing: 'y', candidateRef: 'dc_missing' })).status).toBe(400);
  });
});

describe('POST /discovery/handoff', () => {
  const issueFor = (objectId: string) => new IssueCandidates(t.app.ctx.ledger).file({ objectId, problemKind: 'missing relation', summary: 's', channel: 'signal', ref: 'test' }, 'human:ann').candidate;

  it('links a candidate to existing governance records', async () => {
    const candidate = await newCandidate();
    const issue = issueFor(candidate.objectId);
    const { status, body } = await c.post('/handoff', { discoveryCandidateRef: candidate.id, governanceRefs: [{ kind: 'issue-candidate', id: issue.id }], summary: 'ren/li relation' }, 'human:ann');
    expect(status).toBe(201);
    expect(body.handoff).toMatchObject({ mode: 'manual', discoveryCandidateRef: candidate.id, proposalRef: null, governanceRefs: [{ kind: 'issue-candidate', id: issue.id }], triage: 'manual' });
    const stored = t.app.ctx.ledger.latest(KIND.discoveryCandidate, candidate.id)!.body as { handoffIds: string[]; state: string };
    expect(stored).toMatchObject({ handoffIds: [body.handoff.id], state: 'new' });
  });

  it('hands over an engine proposal', async () => {
    const proposal = (await c.post('/engine/gap', { subject: 'x', missing: 'y' })).body.proposal;
    const issue = issueFor('gap-x');
    const { status, body } = await c.post('/handoff', { proposalRef: proposal.id, governanceRefs: [{ kind: 'issue-candidate', id: issue.id }] });
    expect(status).toBe(201);
    expect(body.handoff.proposalRef).toBe(proposal.id);
  });

  it.each([
    ['no governance references', async () => ({ discoveryCandidateRef: (await newCandidate()).id }), /governance references/],
    ['an empty list of references', async () => ({ discoveryCandidateRef: (await newCandidate()).id, governanceRefs: [] }), /governance references/],
    ['a reference that does not exist', async () => ({ discoveryCandidateRef: (await newCandidate()).id, governanceRefs: [{ kind: 'approval', id: 'ap_missing' }] }), /not found/],
    ['nothing to hand off', async () => ({ governanceRefs: [{ kind: 'issue-candidate', id: issueFor('nothing').id }] }), /nothing to hand off/],
    ['an unknown candidate', async () => ({ discoveryCandidateRef: 'dc_missing', governanceRefs: [{ kind: 'issue-candidate', id: issueFor('unknown').id }] }), /no discovery candidate/],
  ])('refuses %s with 422 HANDOFF_DENIED and writes nothing', async (_label, payload, message) => {
    const body = await payload();
    const before = ledgerCount(t);
    const r = await c.post('/handoff', body);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('HANDOFF_DENIED');
    expect(r.body.error.message).toMatch(message);
    expect(ledgerCount(t)).toBe(before);
  });
});

describe('POST /discovery/auto-handoff', () => {
  it('files the issue candidate and the handoff for an accepted candidate; triage stays manual', async () => {
    const candidate = await accepted();
    const { status, body } = await c.post('/auto-handoff', { discoveryCandidateRef: candidate.id }, 'system:handoff-job');
    expect(status).toBe(201);
    expect(body.candidate).toMatchObject({ id: candidate.id, state: 'handed_off', issueCandidateId: body.issueCandidate.id, handoffIds: [body.handoff.id] });
    expect(body.issueCandidate).toMatchObject({ objectId: candidate.objectId, problemKind: 'discovery:missing_relation', status: 'open', priority: null, humanReviewed: false, channels: ['handoff'] });
    expect(body.issueCandidate.refs[0]).toMatchObject({ channel: 'handoff', ref: body.handoff.id, actor: 'system:handoff-job' });
    expect(body.handoff).toMatchObject({ mode: 'auto', discoveryCandidateRef: candidate.id, governanceRefs: [{ kind: 'issue-candidate', id: body.issueCandidate.id }], triage: 'manual' });
    expect(body.note).toMatch(/triage stays manual/i);
    expect(body.note).toMatch(/P0 needs humanReviewed/);
    expect(t.app.ctx.ledger.latest(KIND.issueCandidate, body.issueCandidate.id)).toBeDefined();
    expect(t.app.ctx.ledger.latest(KIND.handoff, body.handoff.id)).toBeDefined();

    // The filed issue is triaged like any other: P0 without humanReviewed is refused.
    const issues = new IssueCandidates(t.app.ctx.ledger);
    expect(() => issues.triage({ candidateId: body.issueCandidate.id, priority: 'P0', decision: 'accept' }, 'human:ann')).toThrow(ServiceError);
    expect(issues.triage({ candidateId: body.issueCandidate.id, priority: 'P0', decision: 'accept', humanReviewed: true }, 'human:ann').status).toBe('triaged');
  });

  it('refuses a second auto-handoff of the same candidate', async () => {
    const candidate = await accepted();
    expect((await c.post('/auto-handoff', { discoveryCandidateRef: candidate.id })).status).toBe(201);
    const before = ledgerCount(t);
    const again = await c.post('/auto-handoff', { discoveryCandidateRef: candidate.id });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({ code: 'AUTO_HANDOFF_DENIED', message: expect.stringMatching(/already handed off/) });
    expect(ledgerCount(t)).toBe(before);
  });

  it.each(['new', 'screening', 'qualified', 'rejected'])('refuses a candidate in %s with 422 AUTO_HANDOFF_DENIED', async (state) => {
    const candidate = await newCandidate();
    const path: Record<string, string[]> = { new: [], screening: ['screening'], qualified: ['screening', 'qualified'], rejected: ['rejected'] };
    for (const to of path[state]!) await c.post(`/candidates/${candidate.id}/transition`, { to }, 'human:ann');
    const issuesBefore = t.app.ctx.ledger.count(KIND.issueCandidate);
    const { status, body } = await c.post('/auto-handoff', { discoveryCandidateRef: candidate.id });
    expect(status).toBe(422);
    expect(body.error.code).toBe('AUTO_HANDOFF_DENIED');
    expect(body.error.message).toMatch(new RegExp(`is ${state}`));
    expect(t.app.ctx.ledger.count(KIND.issueCandidate)).toBe(issuesBefore);
  });

  it('refuses an unknown candidate and a missing reference', async () => {
    expect((await c.post('/auto-handoff', { discoveryCandidateRef: 'dc_missing' })).body.error.code).toBe('AUTO_HANDOFF_DENIED');
    expect((await c.post('/auto-handoff', {})).status).toBe(400);
  });
});
