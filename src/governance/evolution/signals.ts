import { randomUUID } from 'node:crypto';
import { parseActor } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { IssueCandidates } from '../issue-candidates.js';

/**
 * Issue signals: anyone may report a problem (ai and system actors detect and propose). A signal
 * becomes, or joins, an issue candidate through the signal channel; it never decides anything.
 */

export interface SignalInput {
  objectId: string;
  problemKind: string;
  summary: string;
  evidence?: Record<string, unknown>[];
}

/**
 * Who files the signal: the X-Actor when given; otherwise the bearer credential that sent it
 * (`key:<keyId>`). A malformed X-Actor is a bad request rather than silently ignored.
 */
export function signalAuthor(actorHeader: string | string[] | undefined, keyId: string | undefined): string {
  if (actorHeader === undefined || actorHeader === '') return `key:${keyId ?? 'unknown'}`;
  const parsed = parseActor(actorHeader);
  if (!parsed.ok) throw new ServiceError(400, 'INVALID_REQUEST', `headers.x-actor: ${parsed.reason}`);
  return parsed.actor.ref;
}

export function fileSignal(issues: IssueCandidates, input: SignalInput, author: string) {
  const ref = `sig_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  return issues.file(
    { objectId: input.objectId, problemKind: input.problemKind, summary: input.summary, channel: 'signal', ref, ...(input.evidence ? { evidence: input.evidence } : {}) },
    author,
  );
}
