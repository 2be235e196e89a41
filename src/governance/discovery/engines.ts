import type { z } from 'zod';
import type { Library } from '../../classics/library.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import type { Author } from './callers.js';
import type { DiscoveryCandidates } from './candidates.js';
import type { ConflictRequest, EvidenceRef, GapRequest, RelationRequest } from './schemas.js';

interface ProposalBase {
  formal: false;
  candidateRef: string | null;
  evidence: EvidenceRef[];
  note: string;
}

export interface RelationProposal extends ProposalBase {
  engine: 'relation';
  status: 'proposed';
  from: string;
  to: string;
  known: { from: boolean; to: boolean };
  relationType: string;
  similarity: string[];
  difference: string[];
  nonEquivalence: string[];
}

export interface ConflictProposal extends ProposalBase {
  engine: 'conflict';
  status: 'marked';
  subject: string;
  positions: { statement: string; evidence: EvidenceRef[]; sourceId: string | null }[];
  resolved: false;
  resolution: null;
}

export interface GapProposal extends ProposalBase {
  engine: 'gap';
  status: 'annotated';
  subject: string;
  missing: string;
  expectedIn: string | null;
  filled: false;
  fill: null;
}

export type DiscoveryProposal = RelationProposal | ConflictProposal | GapProposal;

const statements = (list: string[] | undefined) => (list ?? []).map((s) => s.trim()).filter(Boolean);
const same = (a: string, b: string) => a.normalize('NFKC').trim().toLowerCase() === b.normalize('NFKC').trim().toLowerCase();

/**
 * The discovery engines. Each writes a proposal (never formal) that a handoff can take to
 * governance: a relation needs a difference and a non-equivalence besides any similarity, a
 * conflict is marked and never resolved, a gap is annotated and never filled.
 */
export class Engines {
  readonly records: Records<DiscoveryProposal>;

  constructor(
    ledger: LedgerStore,
    private readonly lib: Library,
    private readonly candidates: DiscoveryCandidates,
  ) {
    this.records = new Records<DiscoveryProposal>(ledger, KIND.discoveryProposal, 'dp');
  }

  get(id: string): Versioned<DiscoveryProposal> | undefined {
    return this.records.get(id);
  }

  private candidateRef(ref: string | undefined, refuse: (message: string) => ServiceError): string | null {
    if (ref === undefined) return null;
    if (!this.candidates.get(ref)) throw refuse(`no discovery candidate ${ref}`);
    return ref;
  }

  relation(input: z.infer<typeof RelationRequest>, author: Author): Versioned<RelationProposal> {
    const refuse = (message: string) => new ServiceError(422, 'RELATION_PROPOSAL_REJECTED', message);
    const difference = statements(input.difference);
    const nonEquivalence = statements(input.nonEquivalence);
    const missing = [difference.length ? null : 'difference', nonEquivalence.length ? null : 'nonEquivalence'].filter(Boolean);
    if (missing.length) {
      throw refuse(`similarity is not a relation: ${missing.join(' and ')} must be present (at least one non-blank statement each)`);
    }
    if (same(input.from, input.to)) throw refuse('a relation needs two different subjects');
    const candidateRef = this.candidateRef(input.candidateRef, refuse);
    return this.records.create(
      {
        engine: 'relation',
        status: 'proposed',
        formal: false,
        from: input.from.trim(),
        to: input.to.trim(),
        known: { from: this.lib.knowledge.conceptById.has(input.from.trim()), to: this.lib.knowledge.conceptById.has(input.to.trim()) },
        relationType: input.relationType,
        similarity: statements(input.similarity),
        difference,
        nonEquivalence,
        evidence: input.evidence ?? [],
        candidateRef,
        note: 'A proposal, not a formal relation: the formal graph changes only through governance (POST /discovery/handoff).',
      },
      author.ref,
    ) as Versioned<RelationProposal>;
  }

  /** Marks a conflict. There is no 422 here: an unknown candidateRef is a 400 (the contract lists 200 only). */
  conflict(input: z.infer<typeof ConflictRequest>, author: Author): Versioned<ConflictProposal> {
    const candidateRef = this.candidateRef(input.candidateRef, (message) => new ServiceError(400, 'INVALID_REQUEST', `body.candidateRef: ${message}`));
    return this.records.create(
      {
        engine: 'conflict',
        status: 'marked',
        formal: false,
        subject: input.subject.trim(),
        positions: input.positions.map((p) => ({ statement: p.statement.trim(), evidence: p.evidence ?? [], sourceId: p.sourceId ?? null })),
        resolved: false,
        resolution: null,
        evidence: input.positions.flatMap((p) => p.evidence ?? []),
        candidateRef,
        note: 'A conflict is not an error: marked, never resolved here. Resolution belongs to governance (POST /evolution/conflicts/{id}/resolve, human or editorial X-Actor).',
      },
      author.ref,
    ) as Versioned<ConflictProposal>;
  }

  gap(input: z.infer<typeof GapRequest>, author: Author): Versioned<GapProposal> {
    const candidateRef = this.candidateRef(input.candidateRef, (message) => new ServiceError(400, 'INVALID_REQUEST', `body.candidateRef: ${message}`));
    return this.records.create(
      {
        engine: 'gap',
        status: 'annotated',
        formal: false,
        subject: input.subject.trim(),
        missing: input.missing.trim(),
        expectedIn: input.expectedIn?.trim() || null,
        filled: false,
        fill: null,
        evidence: input.evidence ?? [],
        candidateRef,
        note: 'A gap is annotated, never filled in: no content is generated for it.',
      },
      author.ref,
    ) as Versioned<GapProposal>;
  }
}
