import type { z } from 'zod';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { IssueCandidate, IssueCandidates } from '../issue-candidates.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import { Batch, bodyOf } from './batch.js';
import type { Author } from './callers.js';
import type { DiscoveryCandidate, DiscoveryCandidates } from './candidates.js';
import type { Engines } from './engines.js';
import type { GovernanceRef, HandoffRequest } from './schemas.js';

export interface Handoff {
  mode: 'manual' | 'auto';
  discoveryCandidateRef: string | null;
  proposalRef: string | null;
  governanceRefs: z.infer<typeof GovernanceRef>[];
  summary: string;
  triage: 'manual';
}

export const AUTO_HANDOFF_NOTE =
  'Issue candidate filed through the handoff channel. Triage stays manual: a human X-Actor triages it (POST /evolution/triage), and priority P0 needs humanReviewed: true.';

/**
 * Handoffs take discovery material to governance. A manual handoff links a discovery candidate or
 * an engine proposal to governance records that already exist (at least one, each checked on the
 * ledger). Auto-handoff takes a candidate a human accepted for governance, files the issue
 * candidate itself (channel "handoff") and marks the candidate handed_off. Neither triages.
 */
export class Handoffs {
  readonly records: Records<Handoff>;

  constructor(
    private readonly ledger: LedgerStore,
    private readonly candidates: DiscoveryCandidates,
    private readonly engines: Engines,
    private readonly issues: IssueCandidates,
  ) {
    this.records = new Records<Handoff>(ledger, KIND.handoff, 'dh');
  }

  handoff(input: z.infer<typeof HandoffRequest>, author: Author): Versioned<Handoff> {
    const refuse = (message: string, details?: unknown) => new ServiceError(422, 'HANDOFF_DENIED', message, details);
    if (!input.governanceRefs.length) {
      throw refuse('a handoff needs governance references: governanceRefs must name at least one existing governance record (an issue candidate, evolution candidate, review, approval, conflict, state, event or audit record)');
    }
    const missing = input.governanceRefs.filter((ref) => !this.ledger.latest(ref.kind, ref.id));
    if (missing.length) throw refuse(`governance references not found: ${missing.map((r) => `${r.kind} ${r.id}`).join(', ')}`, { missing });
    if (!input.discoveryCandidateRef && !input.proposalRef) throw refuse('nothing to hand off: give discoveryCandidateRef or proposalRef');
    const candidate = input.discoveryCandidateRef ? this.candidates.get(input.discoveryCandidateRef) : undefined;
    if (input.discoveryCandidateRef && !candidate) throw refuse(`no discovery candidate ${input.discoveryCandidateRef}`);
    if (candidate && (candidate.state === 'rejected' || candidate.state === 'archived')) throw refuse(`discovery candidate ${candidate.id} is ${candidate.state}`);
    const proposal = input.proposalRef ? this.engines.get(input.proposalRef) : undefined;
    if (input.proposalRef && !proposal) throw refuse(`no discovery proposal ${input.proposalRef}`);

    const id = this.records.newId();
    const batch = new Batch(this.ledger);
    batch.put(KIND.handoff, id, author.ref, {
      mode: 'manual',
      discoveryCandidateRef: candidate?.id ?? null,
      proposalRef: proposal?.id ?? null,
      governanceRefs: input.governanceRefs,
      summary: input.summary?.trim() || (candidate ? candidate.title : `${proposal!.engine} proposal ${proposal!.id}`),
      triage: 'manual',
    } satisfies Handoff);
    if (candidate) batch.put(KIND.discoveryCandidate, candidate.id, author.ref, { ...bodyOf<DiscoveryCandidate>(candidate), handoffIds: [...candidate.handoffIds, id] });
    batch.commit();
    return this.records.get(id)!;
  }

  auto(discoveryCandidateRef: string, author: Author): { candidate: Versioned<DiscoveryCandidate>; issueCandidate: Versioned<IssueCandidate>; handoff: Versioned<Handoff>; note: string } {
    const refuse = (message: string) => new ServiceError(422, 'AUTO_HANDOFF_DENIED', message);
    const candidate = this.candidates.get(discoveryCandidateRef);
    if (!candidate) throw refuse(`no discovery candidate ${discoveryCandidateRef}`);
    if (candidate.state !== 'accepted_for_governance') {
      throw refuse(
        candidate.state === 'handed_off'
          ? `discovery candidate ${candidate.id} was already handed off (issue candidate ${candidate.issueCandidateId})`
          : `discovery candidate ${candidate.id} is ${candidate.state}: auto-handoff takes only a candidate a human moved to accepted_for_governance`,
      );
    }

    const handoffId = this.records.newId();
    // Filing is its own ledger write (IssueCandidates owns it); the handoff and the candidate's
    // new state follow in one transaction.
    const { candidate: issueCandidate } = this.issues.file(
      {
        objectId: candidate.objectId,
        problemKind: `discovery:${candidate.signalKind}`,
        summary: candidate.title === candidate.summary ? candidate.summary : `${candidate.title}: ${candidate.summary}`,
        channel: 'handoff',
        ref: handoffId,
        evidence: [{ discoveryCandidateRef: candidate.id, formal: false, trust: 'untrusted' }, ...candidate.evidence],
      },
      author.ref,
    );
    const at = new Date().toISOString();
    const batch = new Batch(this.ledger);
    batch.put(KIND.handoff, handoffId, author.ref, {
      mode: 'auto',
      discoveryCandidateRef: candidate.id,
      proposalRef: null,
      governanceRefs: [{ kind: 'issue-candidate', id: issueCandidate.id }],
      summary: candidate.title,
      triage: 'manual',
    } satisfies Handoff);
    batch.put(KIND.discoveryCandidate, candidate.id, author.ref, {
      ...bodyOf<DiscoveryCandidate>(candidate),
      state: 'handed_off',
      transitions: [...candidate.transitions, { from: candidate.state, to: 'handed_off', actor: author.ref, at, reason: `auto-handoff ${handoffId}` }],
      handoffIds: [...candidate.handoffIds, handoffId],
      issueCandidateId: issueCandidate.id,
    } satisfies DiscoveryCandidate);
    batch.commit();
    return { candidate: this.candidates.get(candidate.id)!, issueCandidate, handoff: this.records.get(handoffId)!, note: AUTO_HANDOFF_NOTE };
  }
}
