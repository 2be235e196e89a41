import { createHash } from 'node:crypto';
import type { Knowledge } from '../../classics/packs.js';
import { requireActor, requireHuman, type Actor } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';

/**
 * Evolution candidates: a proposed change to a claim, concept, passage gloss or relation of the
 * served release, with its evidence. Anyone may propose (an ai or system proposal is marked
 * review_required); only a human reviews and approves; an approval pins the exact revision.
 *
 *   proposed | review_required --review approve--> reviewed --approval--> approved
 *            |                 --review reject---> rejected
 *            |                 --review request_changes--> changes_requested
 *   proposed | review_required | changes_requested | reviewed --revise--> proposed | review_required
 */

export type TargetKind = 'claim' | 'concept' | 'passage' | 'relation';
export type CandidateStatus = 'proposed' | 'review_required' | 'changes_requested' | 'reviewed' | 'rejected' | 'approved';
export type ReviewDecision = 'approve' | 'reject' | 'request_changes';

export interface CandidateEvidence {
  passageId: string;
  quote: string;
}

/** What a revision hashes: the change itself, never its bookkeeping. */
export interface CandidateContent {
  targetKind: TargetKind;
  targetId: string;
  change: Record<string, unknown>;
  rationale: string;
  evidence: CandidateEvidence[];
}

export interface EvolutionCandidate extends CandidateContent {
  releaseId: string | null;
  status: CandidateStatus;
  revision: string;
  proposedBy: string;
  revisedBy: string;
  approvalRef: string | null;
}

export interface Review {
  candidateId: string;
  revision: string;
  decision: ReviewDecision;
  note: string;
  reviewer: string;
}

export interface Approval {
  approvalRef: string;
  candidateId: string;
  revision: string;
  targetKind: TargetKind;
  targetId: string;
  approvedBy: string;
  approvedAt: string;
}

const REVIEWABLE: CandidateStatus[] = ['proposed', 'review_required', 'reviewed'];
const REVISABLE: CandidateStatus[] = ['proposed', 'review_required', 'changes_requested', 'reviewed'];
const AFTER_REVIEW: Record<ReviewDecision, CandidateStatus> = { approve: 'reviewed', reject: 'rejected', request_changes: 'changes_requested' };

/** JSON with object keys sorted at every depth: equal content, equal text, equal hash. */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]))
        : v;
  return JSON.stringify(sort(value));
}

export const revisionOf = (c: CandidateContent): string =>
  createHash('sha256')
    .update(canonicalJson({ targetKind: c.targetKind, targetId: c.targetId, change: c.change, rationale: c.rationale, evidence: c.evidence }))
    .digest('hex');

/** A relation has no id of its own in the packs: it is named `<conceptId>:<type>:<targetConceptId>`. */
export const relationId = (source: string, type: string, target: string) => `${source}:${type}:${target}`;

function targetExists(k: Knowledge, kind: TargetKind, id: string): boolean {
  switch (kind) {
    case 'claim':
      return k.claimById.has(id);
    case 'concept':
      return k.conceptById.has(id);
    case 'passage':
      return k.passageById.has(id);
    case 'relation': {
      const [source, type, target, ...rest] = id.split(':');
      return rest.length === 0 && !!k.conceptById.get(source ?? '')?.relations.some((r) => r.type === type && r.target === target);
    }
  }
}

/** Every reason the content cannot be proposed; empty when it can. */
export function contentProblems(k: Knowledge, c: CandidateContent): string[] {
  const problems: string[] = [];
  if (!targetExists(k, c.targetKind, c.targetId)) problems.push(`no ${c.targetKind} ${c.targetId} in the served release`);
  if (Object.keys(c.change).length === 0) problems.push('change is empty: a candidate must propose a change');
  if (c.evidence.length === 0) problems.push('evidence is empty: a candidate needs at least one {passageId, quote}');
  c.evidence.forEach((e, i) => {
    const passage = k.passageById.get(e.passageId);
    if (!passage) problems.push(`evidence[${i}]: no passage ${e.passageId}`);
    else if (!passage.text.includes(e.quote)) problems.push(`evidence[${i}]: the quote is not verbatim in ${passage.locator}`);
  });
  return problems;
}

const statusFor = (author: Actor): CandidateStatus => (author.kind === 'ai' || author.kind === 'system' ? 'review_required' : 'proposed');

export class EvolutionCandidates {
  readonly candidates: Records<EvolutionCandidate>;
  readonly reviews: Records<Review>;
  readonly approvals: Records<Approval>;

  constructor(
    ledger: LedgerStore,
    private readonly knowledge: Knowledge,
  ) {
    this.candidates = new Records<EvolutionCandidate>(ledger, KIND.evolutionCandidate, 'ec');
    this.reviews = new Records<Review>(ledger, KIND.review, 'rv');
    this.approvals = new Records<Approval>(ledger, KIND.approval, 'apr');
  }

  private existing(id: string): Versioned<EvolutionCandidate> {
    const candidate = this.candidates.get(id);
    if (!candidate) throw new ServiceError(404, 'NOT_FOUND', `no evolution candidate ${id}`);
    return candidate;
  }

  private checkContent(content: CandidateContent) {
    const problems = contentProblems(this.knowledge, content);
    if (problems.length) throw new ServiceError(422, 'CANDIDATE_REJECTED', problems.join('; '));
  }

  /** Any actor may propose; the X-Actor header is required so that the proposal has an author. */
  propose(input: CandidateContent & { releaseId?: string }, actorHeader: string | string[] | undefined): Versioned<EvolutionCandidate> {
    const author = requireActor(actorHeader, 'CANDIDATE_REJECTED');
    const { releaseId, ...content } = input;
    this.checkContent(content);
    if (releaseId !== undefined && !this.knowledge.releaseById.has(releaseId)) {
      throw new ServiceError(422, 'CANDIDATE_REJECTED', `no release ${releaseId}`);
    }
    return this.candidates.create(
      { ...content, releaseId: releaseId ?? null, status: statusFor(author), revision: revisionOf(content), proposedBy: author.ref, revisedBy: author.ref, approvalRef: null },
      author.ref,
    );
  }

  /** A new revision of the content: it goes back to review, and earlier reviews no longer cover it. */
  revise(id: string, input: Omit<CandidateContent, 'targetKind' | 'targetId'>, actorHeader: string | string[] | undefined): Versioned<EvolutionCandidate> {
    const author = requireActor(actorHeader, 'CANDIDATE_REJECTED');
    const current = this.existing(id);
    if (!REVISABLE.includes(current.status)) throw new ServiceError(422, 'CANDIDATE_REJECTED', `candidate ${id} is ${current.status} and cannot be revised`);
    const content: CandidateContent = { targetKind: current.targetKind, targetId: current.targetId, ...input };
    this.checkContent(content);
    const revision = revisionOf(content);
    if (revision === current.revision) throw new ServiceError(422, 'CANDIDATE_REJECTED', 'the revision is identical to the current one');
    return this.candidates.update(id, author.ref, (c) => ({ ...c, ...content, revision, status: statusFor(author), revisedBy: author.ref }))!;
  }

  list(filter: { status?: CandidateStatus; targetKind?: TargetKind; releaseId?: string }): Versioned<EvolutionCandidate>[] {
    return this.candidates.list(
      (c) =>
        (!filter.status || c.status === filter.status) &&
        (!filter.targetKind || c.targetKind === filter.targetKind) &&
        (!filter.releaseId || c.releaseId === filter.releaseId),
    );
  }

  /** A human decision on the current revision; ai, system, missing or malformed actors are refused. */
  review(
    input: { candidateId: string; decision: ReviewDecision; note: string },
    actorHeader: string | string[] | undefined,
  ): { review: Versioned<Review>; candidate: Versioned<EvolutionCandidate> } {
    const reviewer = requireHuman(actorHeader, 'REVIEW_DECISION_REJECTED');
    const current = this.existing(input.candidateId);
    if (!REVIEWABLE.includes(current.status)) {
      throw new ServiceError(422, 'REVIEW_DECISION_REJECTED', `candidate ${current.id} is ${current.status}: only ${REVIEWABLE.join(', ')} candidates are reviewed`);
    }
    const review = this.reviews.create(
      { candidateId: current.id, revision: current.revision, decision: input.decision, note: input.note, reviewer: reviewer.ref },
      reviewer.ref,
    );
    const candidate = this.candidates.update(current.id, reviewer.ref, (c) => ({ ...c, status: AFTER_REVIEW[input.decision] }))!;
    return { review, candidate };
  }

  /**
   * A human approval of exactly the revision the approver read: a stale revision, a candidate
   * without an `approve` review of its current revision, or one already decided is refused.
   */
  approve(
    input: { candidateId: string; revision: string },
    actorHeader: string | string[] | undefined,
  ): { approval: Approval; candidate: Versioned<EvolutionCandidate> } {
    const approver = requireHuman(actorHeader, 'APPROVAL_REJECTED');
    const current = this.existing(input.candidateId);
    const refuse = (why: string) => new ServiceError(422, 'APPROVAL_REJECTED', why);
    if (current.status === 'approved') throw refuse(`candidate ${current.id} is already approved (${current.approvalRef})`);
    if (input.revision !== current.revision) throw refuse(`revision ${input.revision} is stale: the current revision of ${current.id} is ${current.revision}`);
    const approved = this.reviews.list((r) => r.candidateId === current.id && r.revision === current.revision && r.decision === 'approve');
    if (current.status !== 'reviewed' || approved.length === 0) {
      throw refuse(`candidate ${current.id} is ${current.status}: it needs a review with decision approve of its current revision`);
    }
    const approvalRef = this.approvals.newId();
    const approval = this.approvals.create(
      {
        approvalRef,
        candidateId: current.id,
        revision: current.revision,
        targetKind: current.targetKind,
        targetId: current.targetId,
        approvedBy: approver.ref,
        approvedAt: new Date().toISOString(),
      },
      approver.ref,
      approvalRef,
    );
    const candidate = this.candidates.update(current.id, approver.ref, (c) => ({ ...c, status: 'approved', approvalRef }))!;
    return { approval: pick(approval), candidate };
  }

  /** The approval that pins this candidate's current revision, if any. */
  approvalOf(candidate: Pick<EvolutionCandidate, 'revision'> & { id: string }): Approval | undefined {
    const found = this.approvals.list((a) => a.candidateId === candidate.id && a.revision === candidate.revision)[0];
    return found && pick(found);
  }
}

const pick = (a: Approval): Approval => ({
  approvalRef: a.approvalRef,
  candidateId: a.candidateId,
  revision: a.revision,
  targetKind: a.targetKind,
  targetId: a.targetId,
  approvedBy: a.approvedBy,
  approvedAt: a.approvedAt,
});
