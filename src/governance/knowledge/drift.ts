import type { z } from 'zod';
import type { Library } from '../../classics/library.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { IssueCandidates } from '../issue-candidates.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import { handoffNote, type HandoffResult } from './change-signals.js';
import { servedObject } from './graph-lookup.js';
import type { DriftDomain, DriftKind, DriftLayer, DriftSignal, EvidenceList, Ground } from './schemas-part1.js';

/*
 * Semantic drift: a signal that the meaning of an object moves, on one of four layers and in one of
 * six kinds. Similarity is not meaning: a signal resting only on similarity is refused. Cultural
 * and philosophical items are marked for human review. Recording a signal decides nothing.
 */

export interface DriftInput {
  objectId?: string;
  layer?: z.infer<typeof DriftLayer>;
  driftKind?: z.infer<typeof DriftKind>;
  grounds?: z.infer<typeof Ground>[];
  evidence?: EvidenceList;
  domain?: z.infer<typeof DriftDomain>;
  description?: string;
}

const HUMAN_REVIEW_DOMAINS = new Set(['cultural', 'philosophical']);

const reject = (why: string) => new ServiceError(422, 'DRIFT_DETECTION_REJECTED', why);

/** Why a drift signal needs a human reviewer: its domain, or the object being a concept. */
export function reviewReasons(domain: string | undefined, objectKind: string): string[] {
  const reasons: string[] = [];
  if (domain && HUMAN_REVIEW_DOMAINS.has(domain)) reasons.push(`domain ${domain}: cultural and philosophical meaning is judged by a human`);
  if (objectKind === 'concept') reasons.push('the object is a concept: a concept\'s meaning is judged by a human');
  return reasons;
}

export class DriftSignals {
  readonly records: Records<DriftSignal>;

  constructor(
    ledger: LedgerStore,
    private readonly issues: IssueCandidates,
    private readonly lib: Library,
  ) {
    this.records = new Records<DriftSignal>(ledger, KIND.driftSignal, 'sd');
  }

  detect(input: DriftInput, author: string): Versioned<DriftSignal> {
    const objectId = input.objectId?.trim();
    if (!objectId) throw reject('a drift signal needs an objectId');
    if (!input.layer) throw reject('a drift signal needs a layer: lexical, conceptual, interpretive or practical');
    if (!input.driftKind) throw reject('a drift signal needs a driftKind: broadening, narrowing, amelioration, pejoration, reinterpretation or conflation');
    const grounds = input.grounds ?? [];
    if (!grounds.length) throw reject('a drift signal needs grounds: usage, citation or commentary');
    const empty = grounds.findIndex((g) => g.type !== 'similarity' && !g.ref?.trim() && !g.note?.trim());
    if (empty >= 0) throw reject(`grounds[${empty}] (${grounds[empty]!.type}) has neither a ref nor a note: a ground must say what it points at`);
    if (grounds.every((g) => g.type === 'similarity')) {
      throw reject('similarity is not meaning: a drift signal needs at least one usage, citation or commentary ground');
    }

    const objectKind = servedObject(this.lib, objectId).kind;
    const reasons = reviewReasons(input.domain, objectKind);
    const duplicate = this.records.list((s) => s.accepted && s.objectId === objectId && s.layer === input.layer && s.driftKind === input.driftKind)[0];
    return this.records.create(
      {
        objectId,
        objectKind,
        layer: input.layer,
        driftKind: input.driftKind,
        grounds,
        evidence: input.evidence ?? [],
        domain: input.domain ?? null,
        description: input.description ?? null,
        accepted: !duplicate,
        filter: duplicate
          ? { reason: 'duplicate', message: `same object, layer and kind as accepted signal ${duplicate.id}`, duplicateOf: duplicate.id }
          : null,
        requiresHumanReview: reasons.length > 0,
        reviewReasons: reasons,
        status: duplicate ? 'filtered' : 'open',
        issueCandidateId: null,
      },
      author,
    );
  }

  list(filter: { status?: DriftSignal['status']; layer?: DriftSignal['layer']; objectId?: string }): Versioned<DriftSignal>[] {
    return this.records.list(
      (s) => (!filter.status || s.status === filter.status) && (!filter.layer || s.layer === filter.layer) && (!filter.objectId || s.objectId === filter.objectId),
    );
  }

  /** An accepted signal not yet handed off becomes an issue candidate (system channel). */
  handoff(id: string, author: string): HandoffResult<DriftSignal> {
    const signal = this.records.get(id);
    if (!signal) throw new ServiceError(404, 'NOT_FOUND', `no drift signal ${id}`);
    if (!signal.accepted) {
      throw new ServiceError(422, 'DRIFT_HANDOFF_DENIED', `drift signal ${id} was not accepted (${signal.filter?.message}): it cannot be handed off`);
    }
    if (signal.status === 'handed_off') {
      throw new ServiceError(422, 'DRIFT_HANDOFF_DENIED', `drift signal ${id} was already handed off as issue candidate ${signal.issueCandidateId}`);
    }
    const review = signal.requiresHumanReview ? ` Requires human review: ${signal.reviewReasons.join('; ')}.` : '';
    const { candidate, duplicate } = this.issues.file(
      {
        objectId: signal.objectId,
        problemKind: `semantic-drift:${signal.layer}:${signal.driftKind}`,
        summary: `${signal.driftKind} of meaning on the ${signal.layer} layer of ${signal.objectId}.${review}`,
        channel: 'system',
        ref: signal.id,
        evidence: [...signal.grounds, ...signal.evidence],
      },
      author,
    );
    const record = this.records.update(id, author, (s) => ({ ...s, status: 'handed_off', issueCandidateId: candidate.id }))!;
    return { record, issueCandidate: candidate, note: handoffNote(candidate, duplicate) };
  }
}
