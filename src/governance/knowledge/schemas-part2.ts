/**
 * Zod schemas of the second knowledge-evolution table: conflicts, agents, events, audit,
 * personal evolution and metrics. One definition per payload: validation, the OpenAPI contract
 * and the TypeScript types all come from here.
 *
 * Request bodies declare the JSON type of each field, so a wrong type is a 400 INVALID_REQUEST.
 * A field the rule needs but the body lacks (or leaves blank), and a value outside the documented
 * set, is the endpoint's own 422 code instead: the domain modules check that, before any write.
 */
import { z } from 'zod';
import { IssueCandidateSchema } from '../schemas.js';
import { ServiceError } from '../../platform/errors.js';

/* Shared pieces */

/** A piece of evidence: a reference (passage, claim or concept id, locator, URL) or a structured object. */
export const EvidenceItem = z.union([z.string(), z.looseObject({})]);
export const Evidence = z.array(EvidenceItem);
export type EvidenceItem = z.infer<typeof EvidenceItem>;

/** What every record view carries: the ledger's id, version, author and time of its latest version. */
const meta = {
  id: z.string(),
  version: z.number().int().describe('ledger version of this record; every change appends the next one'),
  updatedBy: z.string().describe('X-Actor (kind:id) who wrote this version'),
  updatedAt: z.string().describe('ISO time this version was written'),
};

export const IssueCandidateView = IssueCandidateSchema;

/* Conflicts */

export const CONFLICT_STATES = ['open', 'perspectives_added', 'resolved'] as const;
export const CONFLICT_OUTCOMES = ['KEEP_MULTIPLE', 'PREFER_ONE', 'MERGE', 'DISMISS'] as const;
export type ConflictOutcome = (typeof CONFLICT_OUTCOMES)[number];

export const ConflictRegisterBody = z.object({
  topic: z.string().optional().describe('required: what the conflict is about'),
  objectIds: z.array(z.string()).optional().describe('required, non-empty: the claims, concepts or passages in conflict'),
  description: z.string().optional().describe('required: how the objects disagree'),
  evidence: Evidence.optional().describe('optional references that show the conflict'),
});

export const PerspectiveBody = z.object({
  label: z.string().optional().describe('required: a short name for the position'),
  claim: z.string().optional().describe('required: what the position holds'),
  evidence: Evidence.optional().describe('required, non-empty'),
  limitingConditions: z.array(z.string()).optional().describe('required, non-empty: under which conditions the position holds'),
});

export const ResolveBody = z.object({
  outcome: z.string().optional().describe('required: KEEP_MULTIPLE | PREFER_ONE | MERGE | DISMISS'),
  rationale: z.string().optional().describe('required: why'),
  preferredPerspectiveId: z.string().optional().describe('PREFER_ONE only: the id of an existing perspective of this conflict'),
});

export const Perspective = z.object({
  id: z.string(),
  label: z.string(),
  claim: z.string(),
  evidence: Evidence,
  limitingConditions: z.array(z.string()),
  addedBy: z.string(),
  addedAt: z.string(),
});

export const Conflict = z.object({
  ...meta,
  topic: z.string(),
  objectIds: z.array(z.string()),
  description: z.string(),
  evidence: Evidence,
  state: z.enum(CONFLICT_STATES),
  registeredBy: z.string(),
  perspectives: z.array(Perspective),
  resolution: z
    .object({
      outcome: z.enum(CONFLICT_OUTCOMES),
      rationale: z.string(),
      preferredPerspectiveId: z.string().nullable(),
      resolvedBy: z.string(),
      resolvedAt: z.string(),
    })
    .nullable(),
});

export const ConflictResponse = z.object({ conflict: Conflict });
export const ConflictListQuery = z.object({ state: z.enum(CONFLICT_STATES).optional() });
export const ConflictListResponse = z.object({ total: z.number().int(), conflicts: z.array(Conflict) });

/* Agents */

export const AGENT_ROLES = ['philologist', 'philosopher', 'editor'] as const;

export const AgentRunBody = z.object({
  objectId: z.string().trim().min(1).max(200).describe('a concept, claim or passage id of the served release'),
  question: z.string().max(2000).optional().describe('what the caller wants looked at; recorded with the run'),
});

export const Finding = z.object({
  role: z.enum(AGENT_ROLES),
  kind: z.string().describe('what was found, e.g. rendering_missing, key_passage_unbound'),
  severity: z.enum(['issue', 'note']).describe('issue: evidence that something should change; note: an observation'),
  refs: z.array(z.string()).describe('the passage, claim or concept ids the finding points at'),
  detail: z.string(),
});

export const AgentProposal = z.object({
  ...meta,
  runId: z.string(),
  objectId: z.string(),
  objectKind: z.enum(['concept', 'claim', 'passage']),
  summary: z.string(),
  findings: z.array(Finding).describe('the issue findings this proposal rests on'),
  evidence: z.array(z.string()).describe('every passage, claim or concept id the findings point at'),
  suggestedActions: z.array(z.string()),
  approved: z.literal(false).describe('always false: a proposal is never an approval'),
  status: z.enum(['proposed', 'handed_off']),
  issueCandidateId: z.string().nullable(),
});

export const AgentRun = z.object({
  ...meta,
  objectId: z.string(),
  objectKind: z.enum(['concept', 'claim', 'passage']),
  question: z.string().nullable(),
  releaseId: z.string(),
  roles: z.array(z.object({ role: z.enum(AGENT_ROLES), reads: z.string(), findings: z.array(Finding) })),
  evidence: z.array(z.string()),
  readOnly: z.literal(true),
  approved: z.literal(false),
  proposalId: z.string().nullable(),
  proposal: AgentProposal.nullable().describe('null when no role found evidence'),
});

export const AgentRunResponse = z.object({ run: AgentRun });
export const AgentProposalListQuery = z.object({ objectId: z.string().optional(), status: z.enum(['proposed', 'handed_off']).optional() });
export const AgentProposalListResponse = z.object({ total: z.number().int(), proposals: z.array(AgentProposal) });
export const AgentHandoffResponse = z.object({ proposal: AgentProposal, issueCandidate: IssueCandidateView });

/* Events */

export const EVENT_KINDS = ['change', 'drift', 'conflict', 'graph', 'agent', 'audit', 'personal'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
export const QUEUE_STATES = ['queued', 'in_review', 'deferred', 'approved', 'rejected'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];
export const EVENT_STATUSES = ['open', 'closed'] as const;

export const EventBody = z.object({
  kind: z.string().optional().describe(`required: ${EVENT_KINDS.join(' | ')}`),
  objectId: z.string().optional().describe('required: the object the event is about'),
  payload: z.looseObject({}).optional().describe('what happened; stored as given (defaults to {})'),
  evidence: Evidence.optional().describe('required, non-empty'),
});

export const EventTransitionBody = z.object({
  to: z.string().optional().describe(`required: ${QUEUE_STATES.join(' | ')}`),
  approvalRef: z.string().optional().describe('to approved: the record id of an approval (ledger kind approval) naming this event or its object'),
  note: z.string().max(2000).optional(),
});

export const Transition = z.object({
  from: z.enum(QUEUE_STATES),
  to: z.enum(QUEUE_STATES),
  actor: z.string(),
  at: z.string(),
  approvalRef: z.string().nullable(),
  note: z.string().nullable(),
});

export const EvolutionEvent = z.object({
  ...meta,
  kind: z.enum(EVENT_KINDS),
  objectId: z.string(),
  payload: z.looseObject({}),
  evidence: Evidence,
  fingerprint: z.string(),
  route: z.object({ engine: z.string(), endpoint: z.string() }).describe('the engine this event was routed to, by kind'),
  queueState: z.enum(QUEUE_STATES),
  status: z.enum(EVENT_STATUSES).describe('open while queued, in_review or deferred; closed once approved or rejected'),
  approvalRef: z.string().nullable(),
  emittedBy: z.string(),
  transitions: z.array(Transition),
});

export const EventEmitResponse = z.object({
  event: EvolutionEvent,
  accepted: z.boolean().describe('false when an open event with the same kind, object and payload already exists: that event is returned and nothing is written'),
  reason: z.string().nullable(),
});
export const EventListQuery = z.object({
  status: z.enum(EVENT_STATUSES).optional(),
  queueState: z.enum(QUEUE_STATES).optional(),
  kind: z.enum(EVENT_KINDS).optional(),
});
export const EventListResponse = z.object({ total: z.number().int(), events: z.array(EvolutionEvent) });
export const EventResponse = z.object({ event: EvolutionEvent });

/* Audit */

export const AuditBody = z.object({
  operation: z.string().optional().describe('required: what was done, e.g. release.publish'),
  decision: z.string().optional().describe('required: what was decided'),
  evidence: Evidence.optional().describe('required, non-empty'),
  version: z.union([z.string(), z.number().int()]).optional().describe('required: the version the decision applies to'),
  logType: z.string().optional().describe('required: the log this record belongs to (list filter), e.g. governance, release, security'),
  objectId: z.string().optional().describe('optional: the object the operation touched'),
});

export const AuditRecord = z.object({
  id: z.string(),
  updatedBy: meta.updatedBy,
  updatedAt: meta.updatedAt,
  operation: z.string(),
  decision: z.string(),
  evidence: Evidence,
  version: z.union([z.string(), z.number().int()]).describe('the version the decision applies to (not a ledger version: an audit record is written once)'),
  logType: z.string(),
  objectId: z.string().nullable(),
  recordedBy: z.string(),
});
export const AuditResponse = z.object({ record: AuditRecord });
export const AuditListQuery = z.object({ logType: z.string().optional(), operation: z.string().optional() });
export const AuditListResponse = z.object({ total: z.number().int(), records: z.array(AuditRecord) });

/* Personal evolution */

export const PERMISSIONS = ['store', 'analyze', 'share'] as const;
export const SHARING_SCOPES = ['private', 'product', 'aggregate'] as const;
export const PRIVACY_STATUSES = ['private', 'restricted', 'shared'] as const;
export const CHANGE_TYPES = ['interest', 'demand', 'learning_pattern'] as const;

/** Loose: extra fields reach the raw-transcript check and are refused there, never dropped silently. */
export const PersonalEventBody = z.looseObject({
  owner: z.string().optional().describe('required: whose event this is'),
  permission: z.string().optional().describe(`required: ${PERMISSIONS.join(' | ')} (what the owner allows the service to do with it)`),
  sharingScope: z.string().optional().describe(`required: ${SHARING_SCOPES.join(' | ')} (who may see it)`),
  kind: z.string().optional().describe('what kind of evolution, e.g. interest_shift, milestone; default general'),
  summary: z.string().optional().describe('a short summary written for the owner; never a transcript'),
  evidence: Evidence.optional(),
});

export const PersonalEvent = z.object({
  ...meta,
  owner: z.string(),
  permission: z.enum(PERMISSIONS),
  sharingScope: z.enum(SHARING_SCOPES),
  privacyStatus: z.enum(PRIVACY_STATUSES),
  kind: z.string(),
  summary: z.string().nullable(),
  evidence: Evidence,
  recordedBy: z.string(),
});
export const PersonalEventResponse = z.object({ event: PersonalEvent });
export const PersonalEventListQuery = z.object({ owner: z.string().optional(), privacyStatus: z.enum(PRIVACY_STATUSES).optional() });
export const PersonalEventListResponse = z.object({ total: z.number().int(), events: z.array(PersonalEvent) });

export const BehaviorChangeBody = z.looseObject({
  owner: z.string().optional().describe('required'),
  changeType: z.string().optional().describe(`required: ${CHANGE_TYPES.join(' | ')}`),
  description: z.string().optional().describe('required'),
  evidence: Evidence.optional().describe('required, non-empty'),
});

export const BehaviorSignal = z.object({
  ...meta,
  owner: z.string(),
  changeType: z.enum(CHANGE_TYPES),
  description: z.string(),
  evidence: Evidence,
  status: z.enum(['recorded', 'handed_off']),
  issueCandidateId: z.string().nullable(),
  recordedBy: z.string(),
});
export const BehaviorSignalResponse = z.object({ signal: BehaviorSignal });
export const BehaviorHandoffResponse = z.object({ signal: BehaviorSignal, issueCandidate: IssueCandidateView });

/* Metrics */

const Ratio = z.object({
  value: z.number().nullable().describe('numerator / denominator; null when the denominator is 0'),
  numerator: z.number().int(),
  denominator: z.number().int(),
  formula: z.string(),
});

export const MetricsResponse = z.object({
  metrics: z.object({
    freshness: Ratio.extend({
      windowDays: z.number().int(),
      perKind: z.array(z.object({ kind: z.string(), rows: z.number().int().describe('ledger rows of this kind, every version counted'), newestAt: z.string(), ageSeconds: z.number() })),
    }),
    acceptance: Ratio,
    conflictResolution: Ratio.extend({ byOutcome: z.record(z.string(), z.number().int()) }),
    trustStability: Ratio.extend({ changedClaimIds: z.array(z.string()) }),
    eventApproval: Ratio,
  }),
  releaseId: z.string(),
  computedAt: z.string(),
  note: z.literal('a score is not truth'),
});

/* Rule checks shared by the domain modules */

const blank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/** A non-empty evidence list: at least one entry that is a non-blank string or a non-empty object. */
export const hasEvidence = (evidence: unknown): boolean =>
  Array.isArray(evidence) &&
  evidence.some((e) => (typeof e === 'string' ? e.trim() !== '' : typeof e === 'object' && e !== null && Object.keys(e).length > 0));

/**
 * Refuses with the endpoint's 422 code when a required field is missing or blank (an empty string,
 * an empty list). Fields named in `evidence` must hold a non-empty evidence list.
 */
export function requireFields(code: string, body: Record<string, unknown>, fields: string[], evidence: string[] = []): void {
  const missing = fields.filter((f) => blank(body[f]));
  const noEvidence = evidence.filter((f) => !missing.includes(f) && !hasEvidence(body[f]));
  const problems = [
    ...(missing.length ? [`missing ${missing.join(', ')}`] : []),
    ...noEvidence.map((f) => `${f} must hold at least one non-empty entry`),
  ];
  if (problems.length) throw new ServiceError(422, code, problems.join('; '));
}

/** Refuses a value outside the documented set with the endpoint's 422 code. */
export function requireOneOf<T extends string>(code: string, field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ServiceError(422, code, `${field} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value.slice(0, 50))})`);
  }
  return value as T;
}
