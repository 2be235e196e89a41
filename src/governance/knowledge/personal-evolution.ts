/**
 * Personal evolution: how one owner's relation to the knowledge changes. An event needs its
 * owner, the owner's permission and a sharing scope; a raw transcript is refused before anything
 * is stored. Behavior changes (interest, demand, learning pattern) need evidence, and a behavior
 * signal reaches governance only through a handoff that files an issue candidate without the
 * owner's identity.
 */
import type { z } from 'zod';
import { codePoints } from '../../classics/packs.js';
import { requireActor } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { IssueCandidate, IssueCandidates } from '../issue-candidates.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import {
  CHANGE_TYPES,
  PERMISSIONS,
  SHARING_SCOPES,
  requireFields,
  requireOneOf,
  type BehaviorChangeBody,
  type EvidenceItem,
  type PersonalEventBody,
} from './schemas-part2.js';

type Permission = (typeof PERMISSIONS)[number];
type SharingScope = (typeof SHARING_SCOPES)[number];
export type PrivacyStatus = 'private' | 'restricted' | 'shared';

export interface PersonalEventRecord {
  owner: string;
  permission: Permission;
  sharingScope: SharingScope;
  privacyStatus: PrivacyStatus;
  kind: string;
  summary: string | null;
  evidence: EvidenceItem[];
  recordedBy: string;
}

export interface BehaviorSignalRecord {
  owner: string;
  changeType: (typeof CHANGE_TYPES)[number];
  description: string;
  evidence: EvidenceItem[];
  status: 'recorded' | 'handed_off';
  issueCandidateId: string | null;
  recordedBy: string;
}

/** The longest string a personal record may carry; anything longer reads as a transcript. */
export const MAX_PERSONAL_TEXT = 2000;
/** Field names that carry a conversation (compared lower-case, without _ - or spaces). */
const TRANSCRIPT_FIELDS = new Set(['transcript', 'rawtranscript', 'messages', 'conversation', 'conversations', 'chathistory', 'chatlog', 'dialogue']);

/**
 * Where the body carries a raw transcript, if it does: a field named like one (at any depth, or
 * any name containing "transcript"), or a string over MAX_PERSONAL_TEXT characters. Returns the
 * path only, so that the refusal never repeats the content.
 */
export function findRawTranscript(value: unknown, path = 'body'): string | undefined {
  if (typeof value === 'string') return codePoints(value) > MAX_PERSONAL_TEXT ? `${path} is longer than ${MAX_PERSONAL_TEXT} characters` : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findRawTranscript(item, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const name = key.toLowerCase().replace(/[\s_-]+/g, '');
      if (TRANSCRIPT_FIELDS.has(name) || name.includes('transcript')) return `${path}.${key} is a raw transcript field`;
      const found = findRawTranscript(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

function refuseTranscript(code: string, body: unknown): void {
  const where = findRawTranscript(body);
  if (where) throw new ServiceError(422, code, `raw transcripts are refused and never stored: ${where}; send a short summary instead`);
}

/** private when the scope is private or only storage is allowed; shared when sharing is allowed; restricted otherwise. */
export function privacyStatusOf(permission: Permission, sharingScope: SharingScope): PrivacyStatus {
  if (sharingScope === 'private' || permission === 'store') return 'private';
  return permission === 'share' ? 'shared' : 'restricted';
}

const EVENT = 'PERSONAL_EVENT_REJECTED';
const CHANGE = 'BEHAVIOR_CHANGE_REJECTED';
const HANDOFF = 'BEHAVIOR_HANDOFF_DENIED';

export class PersonalEvolution {
  readonly events: Records<PersonalEventRecord>;
  readonly signals: Records<BehaviorSignalRecord>;

  constructor(
    ledger: LedgerStore,
    private readonly issues: IssueCandidates,
  ) {
    this.events = new Records<PersonalEventRecord>(ledger, KIND.personalEvent, 'pe');
    this.signals = new Records<BehaviorSignalRecord>(ledger, KIND.behaviorSignal, 'bs');
  }

  record(body: z.infer<typeof PersonalEventBody>, actorHeader: string | string[] | undefined): Versioned<PersonalEventRecord> {
    refuseTranscript(EVENT, body);
    const actor = requireActor(actorHeader, EVENT);
    requireFields(EVENT, body, ['owner', 'permission', 'sharingScope']);
    const permission = requireOneOf(EVENT, 'permission', body.permission!.trim(), PERMISSIONS);
    const sharingScope = requireOneOf(EVENT, 'sharingScope', body.sharingScope!.trim(), SHARING_SCOPES);
    return this.events.create(
      {
        owner: body.owner!.trim(),
        permission,
        sharingScope,
        privacyStatus: privacyStatusOf(permission, sharingScope),
        kind: body.kind?.trim() || 'general',
        summary: body.summary?.trim() || null,
        evidence: body.evidence ?? [],
        recordedBy: actor.ref,
      },
      actor.ref,
    );
  }

  list(filter: { owner?: string; privacyStatus?: PrivacyStatus } = {}): Versioned<PersonalEventRecord>[] {
    return this.events.list((e) => (!filter.owner || e.owner === filter.owner) && (!filter.privacyStatus || e.privacyStatus === filter.privacyStatus));
  }

  behaviorChange(body: z.infer<typeof BehaviorChangeBody>, actorHeader: string | string[] | undefined): Versioned<BehaviorSignalRecord> {
    refuseTranscript(CHANGE, body);
    const actor = requireActor(actorHeader, CHANGE);
    requireFields(CHANGE, body, ['owner', 'changeType', 'description', 'evidence'], ['evidence']);
    const changeType = requireOneOf(CHANGE, 'changeType', body.changeType!.trim(), CHANGE_TYPES);
    return this.signals.create(
      {
        owner: body.owner!.trim(),
        changeType,
        description: body.description!.trim(),
        evidence: body.evidence!,
        status: 'recorded',
        issueCandidateId: null,
        recordedBy: actor.ref,
      },
      actor.ref,
    );
  }

  /** Files the signal as an issue candidate (channel handoff) once; the owner is not copied into it. */
  handoff(id: string, actorHeader: string | string[] | undefined): { signal: Versioned<BehaviorSignalRecord>; issueCandidate: Versioned<IssueCandidate> } {
    const actor = requireActor(actorHeader, HANDOFF).ref;
    const current = this.signals.get(id);
    if (!current) throw new ServiceError(404, 'NOT_FOUND', `no behavior signal ${id}`);
    if (current.status === 'handed_off') throw new ServiceError(422, HANDOFF, `behavior signal ${id} was already handed off as ${current.issueCandidateId}`);
    const { candidate } = this.issues.file(
      {
        objectId: `personal-evolution:${current.changeType}`,
        problemKind: `behavior:${current.changeType}`,
        summary: current.description,
        channel: 'handoff',
        ref: current.id,
        evidence: current.evidence,
      },
      actor,
    );
    const signal = this.signals.update(id, actor, (s) => ({ ...s, status: 'handed_off', issueCandidateId: candidate.id }))!;
    return { signal, issueCandidate: candidate };
  }
}
