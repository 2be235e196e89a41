import { parseActor, requireActor, requireHuman } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import type { KnowledgeState } from './schemas-part1.js';

/*
 * Knowledge states: the versioned content of one knowledge object. The record id is the objectId,
 * and every version is a ledger version of that record: create appends v1, evolve and rollback
 * append the next version. Nothing is ever rewritten, so the history is the ledger's own.
 */

type ActorHeader = string | string[] | undefined;
type Content = Record<string, unknown>;

const isContent = (value: unknown): value is Content => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `2`, `"2"` or `"v2"` as a version number; undefined for anything else. */
export function versionNumber(ref: number | string | undefined): number | undefined {
  if (typeof ref === 'number') return Number.isInteger(ref) && ref >= 1 ? ref : undefined;
  const match = ref === undefined ? null : /^v?([1-9]\d{0,8})$/.exec(ref);
  return match ? Number(match[1]) : undefined;
}

/** JSON with object keys sorted, so that equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isContent(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Top-level keys of two contents: changed, removed (from only), added (to only), unchanged; each sorted. */
export function diffContent(from: Content, to: Content) {
  const diff = { changed: [] as string[], removed: [] as string[], added: [] as string[], unchanged: [] as string[] };
  for (const key of Object.keys(from)) {
    if (!Object.hasOwn(to, key)) diff.removed.push(key);
    else (canonical(from[key]) === canonical(to[key]) ? diff.unchanged : diff.changed).push(key);
  }
  for (const key of Object.keys(to)) if (!Object.hasOwn(from, key)) diff.added.push(key);
  for (const list of Object.values(diff)) list.sort();
  return diff;
}

export class KnowledgeStates {
  readonly records: Records<KnowledgeState>;

  constructor(private readonly ledger: LedgerStore) {
    this.records = new Records<KnowledgeState>(ledger, KIND.knowledgeState, 'ks');
  }

  /** v1 of a new state. Any well-formed X-Actor may create one; one state per objectId. */
  create(input: { objectId?: string; content?: unknown; note?: string }, actorHeader: ActorHeader): Versioned<KnowledgeState> {
    const actor = requireActor(actorHeader, 'STATE_REJECTED');
    const objectId = input.objectId?.trim();
    if (!objectId) throw new ServiceError(422, 'STATE_REJECTED', 'a knowledge state needs an objectId');
    if (!isContent(input.content)) throw new ServiceError(422, 'STATE_REJECTED', 'content must be a JSON object');
    if (this.records.get(objectId)) {
      throw new ServiceError(422, 'STATE_REJECTED', `a knowledge state for ${objectId} exists already: evolve it instead`);
    }
    return this.records.create(
      { objectId, content: input.content, change: 'create', approvalRef: null, rolledBackToVersion: null, note: input.note ?? null },
      actor.ref,
      objectId,
    );
  }

  private require(objectId: string): Versioned<KnowledgeState> {
    const state = this.records.get(objectId);
    if (!state) throw new ServiceError(404, 'NOT_FOUND', `no knowledge state for ${objectId}`);
    return state;
  }

  /**
   * The next version with new content. Needs a human (or editorial) X-Actor and an approvalRef
   * naming an approval record whose targetId is this objectId, written by a human, not revoked,
   * and not already applied to this state.
   */
  evolve(
    objectId: string,
    input: { content?: unknown; approvalRef?: string; note?: string },
    actorHeader: ActorHeader,
  ): { previous: Versioned<KnowledgeState>; next: Versioned<KnowledgeState> } {
    const actor = requireHuman(actorHeader, 'STATE_EVOLVE_DENIED');
    const previous = this.require(objectId);
    const deny = (why: string) => new ServiceError(422, 'STATE_EVOLVE_DENIED', why);
    if (!isContent(input.content)) throw deny('content must be a JSON object');
    const approvalRef = input.approvalRef?.trim();
    if (!approvalRef) throw deny('evolve needs an approvalRef: an approval of this object');
    const approval = this.ledger.latest(KIND.approval, approvalRef);
    if (!approval) throw deny(`no approval ${approvalRef}`);
    const body = (approval.body ?? {}) as { targetId?: unknown; status?: unknown; revoked?: unknown };
    if (body.targetId !== objectId) throw deny(`approval ${approvalRef} approves ${String(body.targetId)}, not ${objectId}`);
    if (body.revoked === true || body.status === 'revoked') throw deny(`approval ${approvalRef} was revoked`);
    const approver = parseActor(approval.actor);
    if (approver.ok && (approver.actor.kind === 'ai' || approver.actor.kind === 'system')) {
      throw deny(`approval ${approvalRef} was written by ${approval.actor}, not a human`);
    }
    if (this.records.history(objectId).some((v) => v.approvalRef === approvalRef)) {
      throw deny(`approval ${approvalRef} was already applied to ${objectId}: one approval, one evolution`);
    }
    const next = this.records.update(objectId, actor.ref, () => ({
      objectId,
      content: input.content as Content,
      change: 'evolve',
      approvalRef,
      rolledBackToVersion: null,
      note: input.note ?? null,
    }))!;
    return { previous, next };
  }

  /** Appends a new version whose content is that of an earlier version. Human (or editorial) only. */
  rollback(
    objectId: string,
    input: { toVersion?: number | string; note?: string },
    actorHeader: ActorHeader,
  ): { previous: Versioned<KnowledgeState>; rolledBack: Versioned<KnowledgeState> } {
    const actor = requireHuman(actorHeader, 'STATE_ROLLBACK_DENIED');
    const previous = this.require(objectId);
    const toVersion = versionNumber(input.toVersion);
    if (toVersion === undefined) throw new ServiceError(422, 'STATE_ROLLBACK_DENIED', 'rollback needs toVersion, an earlier version (2 or "v2")');
    const target = this.records.history(objectId).find((v) => v.version === toVersion);
    if (!target) throw new ServiceError(422, 'STATE_ROLLBACK_DENIED', `${objectId} has no version ${toVersion}`);
    if (toVersion === previous.version) {
      throw new ServiceError(422, 'STATE_ROLLBACK_DENIED', `version ${toVersion} is the current version: roll back to an earlier one`);
    }
    const rolledBack = this.records.update(objectId, actor.ref, () => ({
      objectId,
      content: target.content,
      change: 'rollback',
      approvalRef: null,
      rolledBackToVersion: toVersion,
      note: input.note ?? null,
    }))!;
    return { previous, rolledBack };
  }

  history(objectId: string): Versioned<KnowledgeState>[] {
    this.require(objectId);
    return this.records.history(objectId);
  }

  compare(objectId: string, fromRef: string, toRef: string) {
    const history = this.history(objectId);
    const pick = (ref: string) => {
      const n = versionNumber(ref);
      const found = history.find((v) => v.version === n);
      if (!found) throw new ServiceError(404, 'NOT_FOUND', `${objectId} has no version ${ref}`);
      return found;
    };
    const from = pick(fromRef);
    const to = pick(toRef);
    return { objectId, from: from.version, to: to.version, diff: diffContent(from.content, to.content) };
  }
}
