import { ServiceError } from './errors.js';

export type ActorKind = 'human' | 'editorial' | 'ai' | 'system';
export interface Actor {
  kind: ActorKind;
  id: string;
  /** `kind:id`, the form stored in the ledger. */
  ref: string;
}

const KINDS: readonly ActorKind[] = ['human', 'editorial', 'ai', 'system'];

export type ActorParse = { ok: true; actor: Actor } | { ok: false; reason: string };

/**
 * `X-Actor: <kind>:<id>` with kind one of human, editorial, ai, system (any case). A bare `ai` or
 * `system` names that kind with no id. Anything else is malformed.
 */
export function parseActor(header: string | string[] | undefined): ActorParse {
  if (header === undefined || header === '') return { ok: false, reason: 'the X-Actor header is missing' };
  if (Array.isArray(header)) return { ok: false, reason: 'X-Actor was sent more than once' };
  const value = header.trim();
  const bare = value.toLowerCase();
  if (bare === 'ai' || bare === 'system') return { ok: true, actor: { kind: bare, id: bare, ref: `${bare}:${bare}` } };
  const match = /^([A-Za-z]+):([^\s:][^\s]{0,127})$/.exec(value);
  const kind = match?.[1]?.toLowerCase() as ActorKind | undefined;
  if (!match || !kind || !KINDS.includes(kind)) {
    return { ok: false, reason: 'X-Actor must be <kind>:<id> with kind human, editorial, ai or system' };
  }
  const id = match[2]!;
  return { ok: true, actor: { kind, id, ref: `${kind}:${id}` } };
}

export type HumanRule = 'human' | 'human-or-editorial';

/**
 * The one place that decides whether a caller may take a human-only decision. ai and system
 * actors, a missing header and a malformed one are refused with the endpoint's own 422 code.
 * `editorial` counts as human unless the rule names `human` alone.
 */
export function requireHuman(header: string | string[] | undefined, code: string, rule: HumanRule = 'human-or-editorial'): Actor {
  const parsed = parseActor(header);
  if (!parsed.ok) throw new ServiceError(422, code, `${parsed.reason}; this decision needs a human actor`);
  const { actor } = parsed;
  if (actor.kind === 'ai' || actor.kind === 'system') {
    throw new ServiceError(422, code, `actor ${actor.ref} is ${actor.kind}: it may propose but this decision needs a human actor`);
  }
  if (rule === 'human' && actor.kind !== 'human') {
    throw new ServiceError(422, code, `actor ${actor.ref} is editorial: this decision needs a human actor`);
  }
  return actor;
}

/** Who is recorded as the author of a proposal: the parsed actor, or a refusal naming why. */
export function requireActor(header: string | string[] | undefined, code: string): Actor {
  const parsed = parseActor(header);
  if (!parsed.ok) throw new ServiceError(422, code, parsed.reason);
  return parsed.actor;
}
