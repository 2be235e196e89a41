import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND } from '../../../src/governance/kinds.js';
import { candidateBody, K, makeEvolutionApp, type EvolutionTestApp } from './helpers.js';

/** The issue flow (signals, triage) and evolution candidates (proposal, review, revision, approval). */

let t: EvolutionTestApp;
beforeAll(async () => {
  t = await makeEvolutionApp();
});
afterAll(() => t.close());

const signal = (over: Record<string, unknown> = {}, actor?: string) =>
  t.post('/evolution/signals', { objectId: 'concept.wuwei', problemKind: 'wrong-gloss', summary: 'The gloss reads wuwei as idleness.', ...over }, actor);

describe('POST /evolution/signals', () => {
  it('opens an issue candidate from an ai signal', async () => {
    const { status, body } = await signal({ objectId: 'claim.ddj.1.1', evidence: [{ passageId: 'ddj.1', quote: '道可道' }] }, 'ai:model');
    expect(status).toBe(201);
    expect(body.duplicate).toBe(false);
    expect(body.candidate).toMatchObject({ objectId: 'claim.ddj.1.1', status: 'open', count: 1, channels: ['signal'], priority: null, humanReviewed: false, version: 1 });
    expect(body.candidate.refs).toEqual([expect.objectContaining({ channel: 'signal', actor: 'ai:model', ref: expect.stringMatching(/^sig_/) })]);
    expect(body.candidate.evidence).toEqual([{ passageId: 'ddj.1', quote: '道可道' }]);
    expect(t.app.ctx.ledger.latest(KIND.issueCandidate, body.candidate.id)?.actor).toBe('ai:model');
  });

  it('joins the open candidate when the object and the kind of problem match, whatever the wording', async () => {
    const first = await signal({ objectId: 'concept.pu' }, 'system:detector');
    const second = await signal({ objectId: 'Concept.Pu ', problemKind: 'Wrong Gloss', summary: 'Different words, same problem.', evidence: [{ note: 'seen twice' }] }, 'human:ann');
    expect(second.status).toBe(201);
    expect(second.body.duplicate).toBe(true);
    expect(second.body.candidate).toMatchObject({ id: first.body.candidate.id, count: 2, version: 2, evidence: [{ note: 'seen twice' }] });
    expect(second.body.candidate.refs.map((r: { actor: string }) => r.actor)).toEqual(['system:detector', 'human:ann']);
  });

  it('clusters different problems of one object, and separates objects', async () => {
    const gloss = await signal({ objectId: 'concept.ziran' });
    const citation = await signal({ objectId: 'concept.ziran', problemKind: 'broken-citation' });
    const other = await signal({ objectId: 'concept.dao', problemKind: 'broken-citation' });
    expect(citation.body.duplicate).toBe(false);
    expect(citation.body.candidate.id).not.toBe(gloss.body.candidate.id);
    expect(citation.body.candidate.fingerprint).not.toBe(gloss.body.candidate.fingerprint);
    expect(citation.body.candidate.cluster).toBe(gloss.body.candidate.cluster);
    expect(other.body.candidate.cluster).not.toBe(gloss.body.candidate.cluster);
  });

  it('attributes a signal without X-Actor to the bearer credential', async () => {
    const { status, body } = await signal({ objectId: 'passage.anonymous' });
    expect(status).toBe(201);
    expect(body.candidate.refs[0].actor).toMatch(/^key:cfg-/);
  });

  it('refuses a malformed X-Actor or a missing field with 400 and writes nothing', async () => {
    const before = t.rows();
    const malformed = await signal({ objectId: 'concept.x' }, 'robot:x');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_REQUEST');
    const missing = await t.post('/evolution/signals', { problemKind: 'wrong-gloss', summary: 's' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/objectId/);
    expect(t.rows()).toBe(before);
  });
});

describe('POST /evolution/triage', () => {
  const open = async (objectId: string) => (await signal({ objectId })).body.candidate.id as string;

  it('lets a human set priority and decision', async () => {
    const id = await open('triage.accept');
    const { status, body } = await t.post('/evolution/triage', { candidateId: id, priority: 'P1', decision: 'accept' }, 'human:ann');
    expect(status).toBe(200);
    expect(body.candidate).toMatchObject({ id, priority: 'P1', decision: 'accept', status: 'triaged', version: 2, updatedBy: 'human:ann' });
  });

  it('refuses P0 without humanReviewed: true and writes nothing', async () => {
    const id = await open('triage.p0');
    const before = t.rows();
    for (const humanReviewed of [undefined, false]) {
      const { status, body } = await t.post('/evolution/triage', { candidateId: id, priority: 'P0', decision: 'accept', humanReviewed }, 'human:ann');
      expect(status).toBe(422);
      expect(body.error.code).toBe('TRIAGE_REJECTED');
      expect(body.error.message).toMatch(/humanReviewed/);
    }
    expect(t.rows()).toBe(before);
    const ok = await t.post('/evolution/triage', { candidateId: id, priority: 'P0', decision: 'accept', humanReviewed: true }, 'editorial:desk');
    expect(ok.status).toBe(200);
    expect(ok.body.candidate).toMatchObject({ priority: 'P0', humanReviewed: true });
  });

  it('refuses to triage a rejected issue again; a new signal then opens a new one', async () => {
    const id = await open('triage.reject');
    const rejected = await t.post('/evolution/triage', { candidateId: id, priority: 'P3', decision: 'reject' }, 'human:ann');
    expect(rejected.body.candidate.status).toBe('rejected');
    const again = await t.post('/evolution/triage', { candidateId: id, priority: 'P2', decision: 'accept' }, 'human:ann');
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('TRIAGE_REJECTED');
    const fresh = await signal({ objectId: 'triage.reject' });
    expect(fresh.body.duplicate).toBe(false);
    expect(fresh.body.candidate.id).not.toBe(id);
  });

  it('answers 404 for an unknown candidate and 400 for an unknown priority', async () => {
    expect((await t.post('/evolution/triage', { candidateId: 'ic_missing', priority: 'P2', decision: 'defer' }, 'human:ann')).status).toBe(404);
    expect((await t.post('/evolution/triage', { candidateId: 'ic_missing', priority: 'P9', decision: 'defer' }, 'human:ann')).status).toBe(400);
  });

  it('keeps the ledger verifiable', () => {
    expect(t.app.ctx.ledger.verify().ok).toBe(true);
  });
});


const propose = (over: Record<string, unknown> = {}, actor = 'human:ann') => t.post('/evolution/candidates', candidateBody(over), actor);
const review = (candidateId: string, decision: string, actor = 'human:rev') => t.post('/evolution/review/decisions', { candidateId, decision, note: `${decision} after reading` }, actor);
const approve = (candidateId: string, revision: string, actor = 'human:lead') => t.post('/evolution/approvals', { candidateId, revision }, actor);
const revise = (id: string, over: Record<string, unknown>, actor = 'human:ann') => {
  const { change, rationale, evidence } = candidateBody(over);
  return t.post(`/evolution/candidates/${id}/revisions`, { change, rationale, evidence }, actor);
};

describe('POST /evolution/candidates', () => {
  it.each([
    ['human:ann', 'proposed'],
    ['editorial:desk', 'proposed'],
    ['ai:model', 'review_required'],
    ['system:job', 'review_required'],
  ])('a proposal by %s is %s', async (actor, status) => {
    const { status: code, body } = await propose({}, actor);
    expect(code).toBe(201);
    expect(body.candidate).toMatchObject({ status, proposedBy: actor, revisedBy: actor, approvalRef: null, releaseId: null, targetKind: 'concept', targetId: K.conceptId });
    expect(t.app.ctx.ledger.latest(KIND.evolutionCandidate, body.candidate.id)?.actor).toBe(actor);
  });

  it.each([
    ['claim', K.claimId],
    ['passage', K.passageId],
    ['relation', K.relationId],
  ])('accepts a %s target that exists', async (targetKind, targetId) => {
    const { status, body } = await propose({ targetKind, targetId });
    expect(status).toBe(201);
    expect(body.candidate.targetKind).toBe(targetKind);
  });

  it('carries revision = sha256 of the canonical content, independent of key order', async () => {
    const a = (await propose({ change: { to: 'x', field: 'definition_en' } })).body.candidate;
    const b = (await t.post('/evolution/candidates', { evidence: [{ quote: K.quote, passageId: K.passageId }], rationale: candidateBody().rationale, change: { field: 'definition_en', to: 'x' }, targetId: K.conceptId, targetKind: 'concept' }, 'ai:other')).body.candidate;
    const c = (await propose({ change: { field: 'definition_en', to: 'y' } })).body.candidate;
    expect(a.revision).toMatch(/^[0-9a-f]{64}$/);
    expect(b.revision).toBe(a.revision);
    expect(c.revision).not.toBe(a.revision);
    const canonical = JSON.stringify({
      change: { field: 'definition_en', to: 'x' },
      evidence: [{ passageId: K.passageId, quote: K.quote }],
      rationale: candidateBody().rationale,
      targetId: K.conceptId,
      targetKind: 'concept',
    });
    expect(a.revision).toBe(createHash('sha256').update(canonical).digest('hex'));
  });

  it.each([
    ['an unknown claim', { targetKind: 'claim', targetId: 'claim.nowhere' }, /no claim claim.nowhere/],
    ['an unknown concept', { targetId: 'concept.nowhere' }, /no concept/],
    ['an unknown passage', { targetKind: 'passage', targetId: 'ddj.999' }, /no passage/],
    ['a relation that does not exist', { targetKind: 'relation', targetId: 'concept.wuwei:contrasts:concept.ziran' }, /no relation/],
    ['a malformed relation id', { targetKind: 'relation', targetId: 'concept.wuwei' }, /no relation/],
    ['empty evidence', { evidence: [] }, /evidence is empty/],
    ['a quote that is not verbatim', { evidence: [{ passageId: K.passageId, quote: '上善如水' }] }, /not verbatim in Daodejing 8/],
    ['an evidence passage that does not exist', { evidence: [{ passageId: 'ddj.999', quote: K.quote }] }, /no passage ddj.999/],
    ['an empty change', { change: {} }, /change is empty/],
    ['an unknown release', { releaseId: '1999.1.1' }, /no release/],
  ])('refuses %s with 422 CANDIDATE_REJECTED and writes nothing', async (_what, over, message) => {
    const before = t.rows();
    const { status, body } = await propose(over);
    expect(status).toBe(422);
    expect(body.error.code).toBe('CANDIDATE_REJECTED');
    expect(body.error.message).toMatch(message);
    expect(t.rows()).toBe(before);
  });

  it.each([[undefined], ['robot:x'], ['human:']])('refuses X-Actor %s with 422 CANDIDATE_REJECTED', async (actor) => {
    const before = t.rows();
    const r = await t.post('/evolution/candidates', candidateBody(), actor);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('CANDIDATE_REJECTED');
    expect(t.rows()).toBe(before);
  });
});

describe('GET /evolution/candidates', () => {
  it('lists with the status and targetKind filters', async () => {
    const claim = (await propose({ targetKind: 'claim', targetId: K.claimId }, 'ai:lister')).body.candidate;
    const all = (await t.get('/evolution/candidates')).body;
    expect(all.total).toBe(all.candidates.length);
    expect(all.candidates.map((c: { id: string }) => c.id)).toContain(claim.id);
    const filtered = (await t.get('/evolution/candidates?status=review_required&targetKind=claim')).body;
    expect(filtered.candidates.map((c: { id: string }) => c.id)).toContain(claim.id);
    expect(filtered.candidates.every((c: { status: string; targetKind: string }) => c.status === 'review_required' && c.targetKind === 'claim')).toBe(true);
    expect(filtered.total).toBeLessThan(all.total);
    expect((await t.get('/evolution/candidates?status=approved&targetKind=relation')).body).toEqual({ total: 0, candidates: [] });
    expect((await t.get('/evolution/candidates?status=nonsense')).status).toBe(400);
  });
});

describe('POST /evolution/review/decisions', () => {
  it.each([
    ['approve', 'reviewed'],
    ['reject', 'rejected'],
    ['request_changes', 'changes_requested'],
  ])('%s moves the candidate to %s and appends a review record', async (decision, status) => {
    const candidate = (await propose({}, 'ai:model')).body.candidate;
    const { status: code, body } = await review(candidate.id, decision);
    expect(code).toBe(201);
    expect(body.candidate).toMatchObject({ id: candidate.id, status, version: 2 });
    expect(body.review).toMatchObject({ candidateId: candidate.id, revision: candidate.revision, decision, reviewer: 'human:rev', note: `${decision} after reading` });
    expect(t.app.ctx.ledger.latest(KIND.review, body.review.id)?.body).toMatchObject({ candidateId: candidate.id, decision });
  });

  it('refuses a decision on a rejected or changes_requested candidate, and an unknown one', async () => {
    const rejected = (await propose()).body.candidate;
    await review(rejected.id, 'reject');
    const waiting = (await propose()).body.candidate;
    await review(waiting.id, 'request_changes');
    const before = t.rows();
    for (const id of [rejected.id, waiting.id]) {
      const r = await review(id, 'approve');
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('REVIEW_DECISION_REJECTED');
    }
    expect(t.rows()).toBe(before);
    expect((await review('ec_missing', 'approve')).status).toBe(404);
    expect((await t.post('/evolution/review/decisions', { candidateId: waiting.id, decision: 'approve' }, 'human:rev')).status).toBe(400);
  });
});

describe('POST /evolution/candidates/{id}/revisions', () => {
  it('makes a new revision that goes back to review', async () => {
    const candidate = (await propose()).body.candidate;
    await review(candidate.id, 'request_changes');
    const { status, body } = await revise(candidate.id, { rationale: 'Now with a clearer rationale.' }, 'ai:helper');
    expect(status).toBe(201);
    expect(body.candidate).toMatchObject({ status: 'review_required', revisedBy: 'ai:helper', proposedBy: 'human:ann' });
    expect(body.candidate.revision).not.toBe(candidate.revision);
    const same = await revise(candidate.id, { rationale: 'Now with a clearer rationale.' }, 'ai:helper');
    expect(same.status).toBe(422);
    expect(same.body.error.code).toBe('CANDIDATE_REJECTED');
    expect((await revise(candidate.id, { evidence: [] })).body.error.code).toBe('CANDIDATE_REJECTED');
    expect((await revise('ec_missing', {})).status).toBe(404);
  });
});

describe('POST /evolution/approvals', () => {
  it('approves the reviewed revision and yields an approvalRef pinning it', async () => {
    const candidate = (await propose({}, 'ai:model')).body.candidate;
    await review(candidate.id, 'approve');
    const { status, body } = await approve(candidate.id, candidate.revision);
    expect(status).toBe(201);
    expect(body.approval).toEqual({
      approvalRef: expect.stringMatching(/^apr_/),
      candidateId: candidate.id,
      revision: candidate.revision,
      targetKind: 'concept',
      targetId: K.conceptId,
      approvedBy: 'human:lead',
      approvedAt: expect.any(String),
    });
    expect(body.candidate).toMatchObject({ status: 'approved', approvalRef: body.approval.approvalRef });
    const row = t.app.ctx.ledger.latest(KIND.approval, body.approval.approvalRef);
    expect(row?.body).toMatchObject({ candidateId: candidate.id, revision: candidate.revision, targetKind: 'concept', targetId: K.conceptId });
    const twice = await approve(candidate.id, candidate.revision);
    expect(twice.status).toBe(422);
    expect(twice.body.error.message).toMatch(/already approved/);
  });

  it('refuses a stale revision and writes nothing', async () => {
    const candidate = (await propose()).body.candidate;
    await review(candidate.id, 'approve');
    const revised = (await revise(candidate.id, { change: { field: 'definition_en', to: 'A second wording.' } })).body.candidate;
    await review(candidate.id, 'approve');
    const before = t.rows();
    const stale = await approve(candidate.id, candidate.revision);
    expect(stale.status).toBe(422);
    expect(stale.body.error.code).toBe('APPROVAL_REJECTED');
    expect(stale.body.error.message).toMatch(/stale/);
    expect(t.rows()).toBe(before);
    const fresh = await approve(candidate.id, revised.revision);
    expect(fresh.status).toBe(201);
    expect(fresh.body.approval.revision).toBe(revised.revision);
  });

  it('refuses a candidate without an approve review of its current revision', async () => {
    const unreviewed = (await propose()).body.candidate;
    const rejected = (await propose()).body.candidate;
    await review(rejected.id, 'reject');
    const reviewedThenRevised = (await propose()).body.candidate;
    await review(reviewedThenRevised.id, 'approve');
    const next = (await revise(reviewedThenRevised.id, { rationale: 'Changed after the review.' })).body.candidate;
    const before = t.rows();
    for (const c of [unreviewed, rejected, next]) {
      const r = await approve(c.id, c.revision);
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('APPROVAL_REJECTED');
    }
    expect(t.rows()).toBe(before);
    expect((await approve('ec_missing', unreviewed.revision)).status).toBe(404);
    expect((await approve(unreviewed.id, 'not-a-hash')).status).toBe(400);
  });

  it('leaves a ledger that verifies after the whole sequence', () => {
    const result = t.app.ctx.ledger.verify();
    expect(result.ok).toBe(true);
    expect(result.rows).toBe(t.rows());
  });
});
