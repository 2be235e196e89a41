import { parseActor, requireHuman, type Actor } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { ActorKind } from './observation.js';

/** Who is calling: the raw X-Actor header and the credential (`key:<keyId>`) that authenticated the request. */
export interface Caller {
  actorHeader: string | string[] | undefined;
  credential: string;
}

/** The author recorded on the ledger for a discovery write. */
export interface Author {
  ref: string;
  kind: ActorKind;
}

const absent = (header: Caller['actorHeader']) => header === undefined || header === '';

/**
 * Proposals (registering, signalling, engines, handoffs) do not need a human, and the contract
 * does not make X-Actor mandatory for them: without the header the credential is the author.
 * A header that is present must be well-formed (parsed in platform/actor.ts, the one place for
 * X-Actor rules); a malformed one is refused with the endpoint's code.
 */
export function proposer(caller: Caller, code: string, status = 422): Author {
  if (absent(caller.actorHeader)) return { ref: caller.credential, kind: 'credential' };
  const parsed = parseActor(caller.actorHeader);
  if (!parsed.ok) throw new ServiceError(status, code, parsed.reason);
  return { ref: parsed.actor.ref, kind: parsed.actor.kind };
}

/** A human decision (verify, accepted_for_governance): human or editorial, refused with the endpoint's code otherwise. */
export function decider(caller: Caller, code: string): Actor {
  return requireHuman(caller.actorHeader, code, 'human-or-editorial');
}

/** How the observation log names the caller, whatever the outcome. */
export function observedActor(caller: Caller): Author {
  if (absent(caller.actorHeader)) return { ref: caller.credential, kind: 'credential' };
  const parsed = parseActor(caller.actorHeader);
  return parsed.ok ? { ref: parsed.actor.ref, kind: parsed.actor.kind } : { ref: caller.credential, kind: 'malformed' };
}
