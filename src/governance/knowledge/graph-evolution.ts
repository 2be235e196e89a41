import type { z } from 'zod';
import type { Library } from '../../classics/library.js';
import { normalize } from '../../classics/text.js';
import { requireHuman } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { IssueCandidates } from '../issue-candidates.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import { handoffNote, type HandoffResult } from './change-signals.js';
import type { EvidenceList, ExpansionKind, GraphNodeRecord, GraphNodeType, GraphProposal } from './schemas-part1.js';

/*
 * Graph evolution. A human may create a node, but creation is not truth: the node is recorded as
 * unverified and never enters the served graph. Corrections and expansions are proposals anyone
 * (an AI included) may make; they never change the formal graph and reach governance only
 * through a handoff to an issue candidate.
 */

type ActorHeader = string | string[] | undefined;

export interface NodeInput {
  label: string;
  nodeType: z.infer<typeof GraphNodeType>;
  rationale: string;
  tradition?: string;
  evidence?: EvidenceList;
}

export interface CorrectionInput {
  targetId?: string;
  description: string;
  proposedChange?: Record<string, unknown>;
  evidence?: EvidenceList;
}

export interface ExpansionInput {
  expansionKind: z.infer<typeof ExpansionKind>;
  targetId?: string;
  sourceId?: string;
  relationType?: string;
  label?: string;
  description: string;
  evidence?: EvidenceList;
}

const labelKey = (label: string) => normalize(label).replace(/\s+/g, ' ').trim();

export class GraphEvolution {
  readonly nodes: Records<GraphNodeRecord>;
  readonly proposals: Records<GraphProposal>;

  constructor(
    ledger: LedgerStore,
    private readonly issues: IssueCandidates,
    private readonly lib: Library,
  ) {
    this.nodes = new Records<GraphNodeRecord>(ledger, KIND.graphNode, 'gn');
    this.proposals = new Records<GraphProposal>(ledger, KIND.graphProposal, 'gp');
  }

  /** Human (or editorial) only; the node is unverified and outside the served graph. */
  createNode(input: NodeInput, actorHeader: ActorHeader): Versioned<GraphNodeRecord> {
    const actor = requireHuman(actorHeader, 'GRAPH_NODE_DENIED');
    const key = labelKey(input.label);
    const sameLabelAs = [...this.lib.graph.nodes.values()].filter((n) => labelKey(n.label) === key).map((n) => n.id);
    return this.nodes.create(
      {
        label: input.label,
        nodeType: input.nodeType,
        rationale: input.rationale,
        tradition: input.tradition ?? null,
        evidence: input.evidence ?? [],
        status: 'unverified',
        inServedGraph: false,
        sameLabelAs,
      },
      actor.ref,
    );
  }

  /** Ids a proposal names that are neither served graph nodes nor created (unverified) nodes. */
  private unknownIds(ids: (string | undefined)[]): string[] {
    return ids.filter((id): id is string => !!id && !this.lib.graph.nodes.has(id) && !this.nodes.get(id));
  }

  propose(input: ({ proposalKind: 'correction' } & CorrectionInput) | ({ proposalKind: 'expansion' } & ExpansionInput), author: string): Versioned<GraphProposal> {
    const expansion = input.proposalKind === 'expansion' ? input : undefined;
    const correction = input.proposalKind === 'correction' ? input : undefined;
    return this.proposals.create(
      {
        proposalKind: input.proposalKind,
        expansionKind: expansion?.expansionKind ?? null,
        targetId: input.targetId ?? null,
        sourceId: expansion?.sourceId ?? null,
        relationType: expansion?.relationType ?? null,
        label: expansion?.label ?? null,
        description: input.description,
        proposedChange: correction?.proposedChange ?? null,
        evidence: input.evidence ?? [],
        unknownIds: this.unknownIds([input.targetId, expansion?.sourceId]),
        formalGraphChanged: false,
        status: 'proposed',
        issueCandidateId: null,
      },
      author,
    );
  }

  list(filter: { status?: GraphProposal['status']; proposalKind?: GraphProposal['proposalKind'] }): Versioned<GraphProposal>[] {
    return this.proposals.list((p) => (!filter.status || p.status === filter.status) && (!filter.proposalKind || p.proposalKind === filter.proposalKind));
  }

  /** A proposal not yet handed off becomes an issue candidate (system channel). */
  handoff(id: string, author: string): HandoffResult<GraphProposal> {
    const proposal = this.proposals.get(id);
    if (!proposal) throw new ServiceError(404, 'NOT_FOUND', `no graph proposal ${id}`);
    if (proposal.status === 'handed_off') {
      throw new ServiceError(422, 'GRAPH_PROPOSAL_HANDOFF_DENIED', `graph proposal ${id} was already handed off as issue candidate ${proposal.issueCandidateId}`);
    }
    const kind = proposal.proposalKind === 'expansion' ? `graph-expansion:${proposal.expansionKind}` : 'graph-correction';
    const { candidate, duplicate } = this.issues.file(
      {
        objectId: proposal.targetId ?? proposal.sourceId ?? proposal.id,
        problemKind: kind,
        summary: `${kind}: ${proposal.description}`,
        channel: 'system',
        ref: proposal.id,
        evidence: proposal.evidence,
      },
      author,
    );
    const record = this.proposals.update(id, author, (p) => ({ ...p, status: 'handed_off', issueCandidateId: candidate.id }))!;
    return { record, issueCandidate: candidate, note: handoffNote(candidate, duplicate) };
  }
}
