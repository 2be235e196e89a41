import { z } from 'zod';

/** Who wrote which version of a record: every governance record view carries it. */
export const VersionedMeta = {
  id: z.string().describe('record id'),
  version: z.number().int().min(1).describe('ledger version of this record: 1 at creation, +1 per appended change'),
  updatedBy: z.string().describe('actor that wrote this version (`kind:id`, or `key:<keyId>` when no X-Actor was sent)'),
  updatedAt: z.string().describe('when this version was appended (ISO 8601)'),
};

export const Priority = z.enum(['P0', 'P1', 'P2', 'P3']);

/** An issue candidate as every table answers it (signals, triage, feedback and every handoff). */
export const IssueCandidateSchema = z.object({
  ...VersionedMeta,
  fingerprint: z.string().describe('normalised (objectId, problemKind): same object and same kind of problem is the same issue'),
  cluster: z.string().describe('the normalised object id: every issue about one object shares it'),
  objectId: z.string(),
  problemKind: z.string(),
  summary: z.string(),
  status: z.enum(['open', 'triaged', 'rejected', 'closed']),
  priority: Priority.nullable(),
  decision: z.string().nullable(),
  humanReviewed: z.boolean(),
  count: z.number().int().describe('how many signals, feedback items and handoffs joined this issue'),
  channels: z.array(z.enum(['signal', 'feedback', 'handoff', 'system'])),
  refs: z.array(z.object({ channel: z.string(), ref: z.string(), actor: z.string(), at: z.string() })),
  evidence: z.array(z.unknown()).describe('evidence items of every occurrence, as each channel sent them'),
});
