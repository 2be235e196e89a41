import { createHash } from 'node:crypto';
import { requireHuman } from '../platform/actor.js';
import { ServiceError } from '../platform/errors.js';
import type { LedgerStore } from '../platform/ledger.js';
import { KIND } from './kinds.js';
import { Records, type Versioned } from './records.js';

export type Priority = 'P0' | 'P1' | 'P2' | 'P3';
export type IssueChannel = 'signal' | 'feedback' | 'handoff' | 'system';

export interface IssueCandidate {
  fingerprint: string;
  /** Clustered by object: every candidate about the same object shares the cluster. */
  cluster: string;
  objectId: string;
  problemKind: string;
  summary: string;
  status: 'open' | 'triaged' | 'rejected' | 'closed';
  priority: Priority | null;
  decision: string | null;
  humanReviewed: boolean;
  count: number;
  channels: IssueChannel[];
  /** Where each occurrence came from: signal ids, feedback ids, handoff ids. */
  refs: { channel: IssueChannel; ref: string; actor: string; at: string }[];
  evidence: unknown[];
}

export interface IssueSignal {
  objectId: string;
  problemKind: string;
  summary: string;
  channel: IssueChannel;
  ref: string;
  evidence?: unknown[];
}

const normalise = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[\s_-]+/g, ' ').trim();

/** Same object and same kind of problem: the same issue, whatever the wording. */
export const fingerprint = (objectId: string, problemKind: string) =>
  createHash('sha256').update(`${normalise(objectId)}|${normalise(problemKind)}`).digest('hex').slice(0, 24);

/**
 * Issue candidates: the one entry point for signals, feedback and every handoff. A signal whose
 * fingerprint matches an open candidate joins it (count + 1) instead of opening a new one.
 * Filing never decides anything: triage stays with a human.
 */
export class IssueCandidates {
  readonly records: Records<IssueCandidate>;

  constructor(ledger: LedgerStore) {
    this.records = new Records<IssueCandidate>(ledger, KIND.issueCandidate, 'ic');
  }

  file(signal: IssueSignal, actor: string): { candidate: Versioned<IssueCandidate>; duplicate: boolean } {
    const fp = fingerprint(signal.objectId, signal.problemKind);
    const open = this.records.where('fingerprint', fp).find((c) => c.status === 'open' || c.status === 'triaged');
    const ref = { channel: signal.channel, ref: signal.ref, actor, at: new Date().toISOString() };
    if (open) {
      const candidate = this.records.update(open.id, actor, (c) => ({
        ...c,
        count: c.count + 1,
        channels: c.channels.includes(signal.channel) ? c.channels : [...c.channels, signal.channel],
        refs: [...c.refs, ref],
        evidence: [...c.evidence, ...(signal.evidence ?? [])],
      }))!;
      return { candidate, duplicate: true };
    }
    const candidate = this.records.create(
      {
        fingerprint: fp,
        cluster: normalise(signal.objectId),
        objectId: signal.objectId,
        problemKind: signal.problemKind,
        summary: signal.summary,
        status: 'open',
        priority: null,
        decision: null,
        humanReviewed: false,
        count: 1,
        channels: [signal.channel],
        refs: [ref],
        evidence: signal.evidence ?? [],
      },
      actor,
    );
    return { candidate, duplicate: false };
  }

  /** Triage: a human sets priority and decision; P0 needs humanReviewed: true. */
  triage(
    input: { candidateId: string; priority: Priority; decision: 'accept' | 'reject' | 'defer'; humanReviewed?: boolean; note?: string },
    actorHeader: string | string[] | undefined,
  ): Versioned<IssueCandidate> {
    const actor = requireHuman(actorHeader, 'TRIAGE_REJECTED');
    const current = this.records.get(input.candidateId);
    if (!current) throw new ServiceError(404, 'NOT_FOUND', `no issue candidate ${input.candidateId}`);
    if (input.priority === 'P0' && input.humanReviewed !== true) {
      throw new ServiceError(422, 'TRIAGE_REJECTED', 'priority P0 needs humanReviewed: true');
    }
    if (current.status === 'rejected' || current.status === 'closed') {
      throw new ServiceError(422, 'TRIAGE_REJECTED', `issue candidate ${input.candidateId} is ${current.status}`);
    }
    return this.records.update(current.id, actor.ref, (c) => ({
      ...c,
      priority: input.priority,
      decision: input.decision,
      humanReviewed: input.humanReviewed === true,
      status: input.decision === 'reject' ? 'rejected' : 'triaged',
    }))!;
  }
}
