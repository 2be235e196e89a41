/**
 * Evolution events: a record that something happened to an object, with its evidence. An event
 * is never an approval. On emission it is routed by kind to the engine that handles it and enters
 * the queue as `queued`; it moves only along the whitelist below, and reaches `approved` only by
 * a human (or editorial) X-Actor naming an approval record that covers it.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { requireActor, requireHuman } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import {
  EVENT_KINDS,
  QUEUE_STATES,
  requireFields,
  requireOneOf,
  type EventBody,
  type EventKind,
  type EventTransitionBody,
  type EvidenceItem,
  type QueueState,
} from './schemas-part2.js';

/** Where each kind of event is routed: the engine and the endpoint that owns its records. */
export const EVENT_ROUTES: Record<EventKind, { engine: string; endpoint: string }> = {
  change: { engine: 'change-signals', endpoint: '/api/classics/v1/evolution/change-signals' },
  drift: { engine: 'semantic-drift', endpoint: '/api/classics/v1/evolution/semantic-drift' },
  conflict: { engine: 'conflicts', endpoint: '/api/classics/v1/evolution/conflicts' },
  graph: { engine: 'graph-evolution', endpoint: '/api/classics/v1/evolution/graph-evolution/proposals' },
  agent: { engine: 'agents', endpoint: '/api/classics/v1/evolution/agents/proposals' },
  audit: { engine: 'audit', endpoint: '/api/classics/v1/evolution/audit' },
  personal: { engine: 'personal-evolution', endpoint: '/api/classics/v1/evolution/personal-evolution' },
};

/** The queue: every allowed move. approved and rejected are final. */
export const QUEUE_MOVES: Record<QueueState, readonly QueueState[]> = {
  queued: ['in_review', 'deferred', 'rejected'],
  in_review: ['approved', 'rejected', 'deferred', 'queued'],
  deferred: ['queued', 'rejected'],
  approved: [],
  rejected: [],
};

/** Moves that are decisions: only a human or editorial actor takes them. */
const DECISIONS: readonly QueueState[] = ['approved', 'rejected'];

export interface EventRecord {
  kind: EventKind;
  objectId: string;
  payload: Record<string, unknown>;
  evidence: EvidenceItem[];
  fingerprint: string;
  route: { engine: string; endpoint: string };
  queueState: QueueState;
  status: 'open' | 'closed';
  approvalRef: string | null;
  emittedBy: string;
  transitions: { from: QueueState; to: QueueState; actor: string; at: string; approvalRef: string | null; note: string | null }[];
}

const EMIT = 'EVENT_EMIT_REJECTED';
const TRANSITION = 'EVENT_TRANSITION_DENIED';

const statusOf = (state: QueueState): EventRecord['status'] => (state === 'approved' || state === 'rejected' ? 'closed' : 'open');

/** JSON with sorted keys, so that the same payload always gives the same fingerprint. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : value && typeof value === 'object'
      ? `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(value);

export class EvolutionEvents {
  readonly records: Records<EventRecord>;

  constructor(private readonly ledger: LedgerStore) {
    this.records = new Records<EventRecord>(ledger, KIND.evolutionEvent, 'ev');
  }

  /**
   * Stores and routes an event. An open event with the same kind, object and payload is not
   * queued twice: it is returned with accepted: false and nothing is written.
   */
  emit(
    body: z.infer<typeof EventBody>,
    actorHeader: string | string[] | undefined,
  ): { event: Versioned<EventRecord>; accepted: boolean; reason: string | null } {
    const actor = requireActor(actorHeader, EMIT);
    requireFields(EMIT, body, ['kind', 'objectId', 'evidence'], ['evidence']);
    const kind = requireOneOf(EMIT, 'kind', body.kind!, EVENT_KINDS);
    const objectId = body.objectId!.trim();
    const payload = body.payload ?? {};
    const fingerprint = createHash('sha256').update(`${kind}|${objectId}|${canonical(payload)}`).digest('hex').slice(0, 24);
    const open = this.records.list((e) => e.fingerprint === fingerprint && e.status === 'open')[0];
    if (open) return { event: open, accepted: false, reason: `duplicate of open event ${open.id}` };
    const event = this.records.create(
      {
        kind,
        objectId,
        payload,
        evidence: body.evidence!,
        fingerprint,
        route: EVENT_ROUTES[kind],
        queueState: 'queued',
        status: 'open',
        approvalRef: null,
        emittedBy: actor.ref,
        transitions: [],
      },
      actor.ref,
    );
    return { event, accepted: true, reason: null };
  }

  list(filter: { status?: EventRecord['status']; queueState?: QueueState; kind?: EventKind } = {}): Versioned<EventRecord>[] {
    return this.records.list(
      (e) => (!filter.status || e.status === filter.status) && (!filter.queueState || e.queueState === filter.queueState) && (!filter.kind || e.kind === filter.kind),
    );
  }

  /**
   * Moves an event along the whitelist. Any well-formed X-Actor may move it between queued,
   * in_review and deferred; approved and rejected are decisions (human or editorial only), and
   * approved also needs an approvalRef: an approval record naming this event or its object.
   */
  transition(id: string, body: z.infer<typeof EventTransitionBody>, actorHeader: string | string[] | undefined): Versioned<EventRecord> {
    requireFields(TRANSITION, body, ['to']);
    const to = requireOneOf(TRANSITION, 'to', body.to!, QUEUE_STATES);
    const actor = DECISIONS.includes(to) ? requireHuman(actorHeader, TRANSITION, 'human-or-editorial') : requireActor(actorHeader, TRANSITION);
    const current = this.records.get(id);
    if (!current) throw new ServiceError(404, 'NOT_FOUND', `no evolution event ${id}`);
    const from = current.queueState;
    if (!QUEUE_MOVES[from].includes(to)) {
      const allowed = QUEUE_MOVES[from];
      throw new ServiceError(422, TRANSITION, `${from} -> ${to} is not an allowed move (from ${from}: ${allowed.length ? allowed.join(', ') : 'none, it is final'})`);
    }
    const approvalRef = to === 'approved' ? this.checkApproval(current, body.approvalRef) : null;
    return this.records.update(id, actor.ref, (e) => ({
      ...e,
      queueState: to,
      status: statusOf(to),
      approvalRef: approvalRef ?? e.approvalRef,
      transitions: [...e.transitions, { from, to, actor: actor.ref, at: new Date().toISOString(), approvalRef, note: body.note?.trim() || null }],
    }))!;
  }

  private checkApproval(event: Versioned<EventRecord>, ref: string | undefined): string {
    const approvalRef = ref?.trim();
    if (!approvalRef) throw new ServiceError(422, TRANSITION, 'moving an event to approved needs an approvalRef');
    const approval = this.ledger.latest(KIND.approval, approvalRef);
    if (!approval) throw new ServiceError(422, TRANSITION, `approvalRef ${approvalRef} names no approval record`);
    const a = (approval.body ?? {}) as { targetKind?: unknown; targetId?: unknown; candidateId?: unknown };
    const covers = a.targetId === event.id || a.targetId === event.objectId || a.candidateId === event.objectId;
    if (!covers) throw new ServiceError(422, TRANSITION, `approval ${approvalRef} approves ${String(a.targetId)}, not event ${event.id} or its object ${event.objectId}`);
    return approvalRef;
  }
}
