/**
 * Agent runs and their proposals on the ledger. A run reads the packs (agent-analysis.ts) and is
 * recorded with its findings; it drafts a proposal only when a role found evidence. A proposal is
 * never approved (`approved: false`, always); its only way forward is a handoff, which files an
 * issue candidate whose triage stays with a human.
 */
import type { Knowledge } from '../../classics/packs.js';
import { parseActor, requireActor } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { IssueCandidate, IssueCandidates } from '../issue-candidates.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import { analyse, objectKindOf, type Finding, type ObjectKind, type RoleReport } from './agent-analysis.js';

export interface AgentRunRecord {
  objectId: string;
  objectKind: ObjectKind;
  question: string | null;
  releaseId: string;
  roles: RoleReport[];
  evidence: string[];
  readOnly: true;
  approved: false;
  proposalId: string | null;
}

export interface AgentProposalRecord {
  runId: string;
  objectId: string;
  objectKind: ObjectKind;
  summary: string;
  findings: Finding[];
  evidence: string[];
  suggestedActions: string[];
  approved: false;
  status: 'proposed' | 'handed_off';
  issueCandidateId: string | null;
}

export type RunView = Versioned<AgentRunRecord> & { proposal: Versioned<AgentProposalRecord> | null };

const HANDOFF = 'AGENT_PROPOSAL_HANDOFF_DENIED';

/**
 * Who a run is recorded for: a run decides nothing, so X-Actor is optional (any kind); without it
 * the run is recorded for the bearer credential's key id. A malformed X-Actor is a bad request.
 */
export function runAuthor(header: string | string[] | undefined, keyId: string | undefined): string {
  if (header === undefined || header === '') return `key:${keyId ?? 'unknown'}`;
  const parsed = parseActor(header);
  if (!parsed.ok) throw new ServiceError(400, 'INVALID_REQUEST', `headers.x-actor: ${parsed.reason}`);
  return parsed.actor.ref;
}

export class Agents {
  readonly runs: Records<AgentRunRecord>;
  readonly proposals: Records<AgentProposalRecord>;

  constructor(
    ledger: LedgerStore,
    private readonly issues: IssueCandidates,
    private readonly knowledge: Knowledge,
    private readonly releaseId: string,
  ) {
    this.runs = new Records<AgentRunRecord>(ledger, KIND.agentRun, 'agr');
    this.proposals = new Records<AgentProposalRecord>(ledger, KIND.agentProposal, 'agp');
  }

  run(input: { objectId: string; question?: string }, actor: string): RunView {
    const objectId = input.objectId.trim();
    const kind = objectKindOf(this.knowledge, objectId);
    if (!kind) throw new ServiceError(404, 'NOT_FOUND', `${objectId} is not a concept, claim or passage of release ${this.releaseId}`);
    const analysis = analyse(this.knowledge, objectId, kind);
    const runId = this.runs.newId();
    const proposal = analysis.proposal
      ? this.proposals.create(
          { runId, objectId, objectKind: kind, ...analysis.proposal, approved: false, status: 'proposed', issueCandidateId: null },
          actor,
        )
      : null;
    const run = this.runs.create(
      {
        objectId,
        objectKind: kind,
        question: input.question?.trim() || null,
        releaseId: this.releaseId,
        roles: analysis.roles,
        evidence: analysis.evidence,
        readOnly: true,
        approved: false,
        proposalId: proposal?.id ?? null,
      },
      actor,
      runId,
    );
    return { ...run, proposal };
  }

  list(filter: { objectId?: string; status?: AgentProposalRecord['status'] } = {}): Versioned<AgentProposalRecord>[] {
    return this.proposals.list((p) => (!filter.objectId || p.objectId === filter.objectId) && (!filter.status || p.status === filter.status));
  }

  /** Files the proposal as an issue candidate (channel handoff); a proposal is handed off once. */
  handoff(id: string, actorHeader: string | string[] | undefined): { proposal: Versioned<AgentProposalRecord>; issueCandidate: Versioned<IssueCandidate> } {
    const actor = requireActor(actorHeader, HANDOFF).ref;
    const current = this.proposals.get(id);
    if (!current) throw new ServiceError(404, 'NOT_FOUND', `no agent proposal ${id}`);
    if (current.status === 'handed_off') throw new ServiceError(422, HANDOFF, `agent proposal ${id} was already handed off as ${current.issueCandidateId}`);
    const { candidate } = this.issues.file(
      {
        objectId: current.objectId,
        problemKind: `agent:${current.findings[0]?.kind ?? 'proposal'}`,
        summary: current.summary,
        channel: 'handoff',
        ref: current.id,
        evidence: current.evidence,
      },
      actor,
    );
    const proposal = this.proposals.update(id, actor, (p) => ({ ...p, status: 'handed_off', issueCandidateId: candidate.id }))!;
    return { proposal, issueCandidate: candidate };
  }
}
