/**
 * Knowledge conflicts: anyone (an AI too) may register one and add perspectives; only a human or
 * editorial actor may resolve it, and keeping several perspectives side by side (KEEP_MULTIPLE) is
 * a valid resolution. A conflict is never deleted: each move appends its next version.
 *
 * States: open -> perspectives_added -> resolved, or open -> resolved directly.
 */
import type { z } from 'zod';
import { requireActor, requireHuman } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import {
  CONFLICT_OUTCOMES,
  requireFields,
  requireOneOf,
  type ConflictRegisterBody,
  type EvidenceItem,
  type PerspectiveBody,
  type ResolveBody,
} from './schemas-part2.js';

type Outcome = (typeof CONFLICT_OUTCOMES)[number];
export type ConflictState = 'open' | 'perspectives_added' | 'resolved';

export interface PerspectiveRecord {
  id: string;
  label: string;
  claim: string;
  evidence: EvidenceItem[];
  limitingConditions: string[];
  addedBy: string;
  addedAt: string;
}

export interface ConflictRecord {
  topic: string;
  objectIds: string[];
  description: string;
  evidence: EvidenceItem[];
  state: ConflictState;
  registeredBy: string;
  perspectives: PerspectiveRecord[];
  resolution: { outcome: Outcome; rationale: string; preferredPerspectiveId: string | null; resolvedBy: string; resolvedAt: string } | null;
}

const REGISTER = 'CONFLICT_REGISTER_REJECTED';
const PERSPECTIVE = 'PERSPECTIVE_REJECTED';
const RESOLVE = 'CONFLICT_RESOLVE_DENIED';

export class Conflicts {
  readonly records: Records<ConflictRecord>;

  constructor(ledger: LedgerStore) {
    this.records = new Records<ConflictRecord>(ledger, KIND.knowledgeConflict, 'kc');
  }

  /** Any well-formed X-Actor may register, an AI included: identifying a conflict decides nothing. */
  register(body: z.infer<typeof ConflictRegisterBody>, actorHeader: string | string[] | undefined): Versioned<ConflictRecord> {
    const actor = requireActor(actorHeader, REGISTER);
    requireFields(REGISTER, body, ['topic', 'objectIds', 'description']);
    const objectIds = body.objectIds!.map((id) => id.trim()).filter(Boolean);
    if (!objectIds.length) throw new ServiceError(422, REGISTER, 'objectIds must name at least one object');
    return this.records.create(
      {
        topic: body.topic!.trim(),
        objectIds: [...new Set(objectIds)],
        description: body.description!.trim(),
        evidence: body.evidence ?? [],
        state: 'open',
        registeredBy: actor.ref,
        perspectives: [],
        resolution: null,
      },
      actor.ref,
    );
  }

  /** A perspective must carry evidence and the conditions under which it holds. */
  addPerspective(id: string, body: z.infer<typeof PerspectiveBody>, actorHeader: string | string[] | undefined): Versioned<ConflictRecord> {
    const actor = requireActor(actorHeader, PERSPECTIVE);
    const current = this.get(id);
    if (current.state === 'resolved') throw new ServiceError(422, PERSPECTIVE, `conflict ${id} is resolved; its perspectives are closed`);
    requireFields(PERSPECTIVE, body, ['label', 'claim', 'evidence', 'limitingConditions'], ['evidence']);
    const limitingConditions = body.limitingConditions!.map((c) => c.trim()).filter(Boolean);
    if (!limitingConditions.length) throw new ServiceError(422, PERSPECTIVE, 'limitingConditions must hold at least one non-empty condition');
    return this.records.update(id, actor.ref, (c) => ({
      ...c,
      state: 'perspectives_added',
      perspectives: [
        ...c.perspectives,
        {
          id: `p${c.perspectives.length + 1}`,
          label: body.label!.trim(),
          claim: body.claim!.trim(),
          evidence: body.evidence!,
          limitingConditions,
          addedBy: actor.ref,
          addedAt: new Date().toISOString(),
        },
      ],
    }))!;
  }

  /** Human or editorial only; KEEP_MULTIPLE is valid, PREFER_ONE names an existing perspective. */
  resolve(id: string, body: z.infer<typeof ResolveBody>, actorHeader: string | string[] | undefined): Versioned<ConflictRecord> {
    const actor = requireHuman(actorHeader, RESOLVE, 'human-or-editorial');
    const current = this.get(id);
    if (current.state === 'resolved') throw new ServiceError(422, RESOLVE, `conflict ${id} is already resolved (${current.resolution?.outcome})`);
    requireFields(RESOLVE, body, ['outcome', 'rationale']);
    const outcome = requireOneOf(RESOLVE, 'outcome', body.outcome!, CONFLICT_OUTCOMES);
    const preferred = body.preferredPerspectiveId?.trim() || null;
    if (outcome === 'PREFER_ONE') {
      if (!preferred) throw new ServiceError(422, RESOLVE, 'PREFER_ONE needs preferredPerspectiveId');
      if (!current.perspectives.some((p) => p.id === preferred)) {
        throw new ServiceError(422, RESOLVE, `conflict ${id} has no perspective ${preferred}`);
      }
    } else if (preferred) {
      throw new ServiceError(422, RESOLVE, `preferredPerspectiveId is only for PREFER_ONE, not ${outcome}`);
    }
    return this.records.update(id, actor.ref, (c) => ({
      ...c,
      state: 'resolved',
      resolution: { outcome, rationale: body.rationale!.trim(), preferredPerspectiveId: preferred, resolvedBy: actor.ref, resolvedAt: new Date().toISOString() },
    }))!;
  }

  list(state?: ConflictState): Versioned<ConflictRecord>[] {
    return this.records.list(state ? (c) => c.state === state : undefined);
  }

  get(id: string): Versioned<ConflictRecord> {
    const found = this.records.get(id);
    if (!found) throw new ServiceError(404, 'NOT_FOUND', `no conflict ${id}`);
    return found;
  }
}
