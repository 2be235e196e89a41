import { z } from 'zod';
import { IssueCandidateSchema, Priority, VersionedMeta as Versioned } from '../schemas.js';

export { IssueCandidateSchema, Priority };

/**
 * Request and response schemas of the "Evolution governance" table: the one source of validation,
 * of the OpenAPI contract and of the TypeScript types. Record fields are described in
 * docs/governance-evolution.md.
 */

const id = (what: string) => z.string().trim().min(1).max(200).describe(what);
const text = (max: number) => z.string().trim().min(1).max(max);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex sha256');


/** The X-Actor header, documented here and checked by platform/actor (never by this schema). */
export const ActorHeaders = z.looseObject({
  'x-actor': z
    .string()
    .optional()
    .describe('`<kind>:<id>` with kind human, editorial, ai or system; a bare `ai` or `system` names that kind'),
});

/* Issue candidates: signals and triage */


export const SignalEvidence = z
  .object({
    passageId: id('a passage the signal points at').optional(),
    quote: text(2000).optional(),
    note: text(2000).optional(),
    url: z.url().max(2000).optional(),
  })
  .refine((e) => Object.values(e).some((v) => v !== undefined), 'an evidence item needs at least one of passageId, quote, note, url');

export const SignalRequest = z.object({
  objectId: id('the object the problem is about: a claim, concept, passage, relation, product feature...'),
  problemKind: text(100).describe('the kind of problem, e.g. wrong-gloss, broken-citation; with objectId it makes the fingerprint'),
  summary: text(2000),
  evidence: z.array(SignalEvidence).max(50).optional(),
});


export const SignalResponse = z.object({
  candidate: IssueCandidateSchema,
  duplicate: z.boolean().describe('true when the signal joined an open issue candidate with the same fingerprint'),
});

export const TriageRequest = z.object({
  candidateId: id('issue candidate id'),
  priority: Priority,
  decision: z.enum(['accept', 'reject', 'defer']),
  humanReviewed: z.boolean().optional().describe('must be true for priority P0'),
});

export const TriageResponse = z.object({ candidate: IssueCandidateSchema });

/* Evolution candidates, reviews and approvals */

export const TargetKind = z.enum(['claim', 'concept', 'passage', 'relation']);
export const CandidateStatus = z.enum(['proposed', 'review_required', 'changes_requested', 'reviewed', 'rejected', 'approved']);

export const CandidateEvidence = z.object({
  passageId: id('a passage of the served release'),
  quote: z.string().min(1).max(2000).describe('a verbatim substring of the passage text'),
});

export const Change = z
  .record(z.string().min(1).max(100), z.unknown())
  .describe('the proposed change, e.g. {"field": "definition_en", "from": "...", "to": "..."}; must not be empty');

const CandidateContentFields = {
  change: Change,
  rationale: text(4000),
  evidence: z.array(CandidateEvidence).max(50).describe('at least one span; each quote verbatim in its passage'),
};

export const CandidateRequest = z.object({
  targetKind: TargetKind,
  targetId: id('an existing claim, concept or passage id; a relation is `<conceptId>:<type>:<targetConceptId>`'),
  ...CandidateContentFields,
  releaseId: id('the release this change is meant for; its manifest then needs an approval of the change').optional(),
});

export const CandidateRevisionRequest = z.object(CandidateContentFields);

export const CandidateSchema = z.object({
  ...Versioned,
  targetKind: TargetKind,
  targetId: z.string(),
  change: Change,
  rationale: z.string(),
  evidence: z.array(CandidateEvidence),
  releaseId: z.string().nullable(),
  status: CandidateStatus,
  revision: Sha256.describe('sha256 of the canonical content (targetKind, targetId, change, rationale, evidence)'),
  proposedBy: z.string(),
  revisedBy: z.string().describe('author of the current revision'),
  approvalRef: z.string().nullable(),
});

export const CandidateResponse = z.object({ candidate: CandidateSchema });

export const CandidatesQuery = z.object({
  status: CandidateStatus.optional(),
  targetKind: TargetKind.optional(),
  releaseId: id('only candidates meant for this release').optional(),
});

export const CandidateListResponse = z.object({ total: z.number().int(), candidates: z.array(CandidateSchema) });

export const ReviewRequest = z.object({
  candidateId: id('evolution candidate id'),
  decision: z.enum(['approve', 'reject', 'request_changes']),
  note: text(4000),
});

export const ReviewSchema = z.object({
  ...Versioned,
  candidateId: z.string(),
  revision: Sha256.describe('the candidate revision this decision is about'),
  decision: z.enum(['approve', 'reject', 'request_changes']),
  note: z.string(),
  reviewer: z.string(),
});

export const ReviewResponse = z.object({ review: ReviewSchema, candidate: CandidateSchema });

export const ApprovalRequest = z.object({
  candidateId: id('evolution candidate id'),
  revision: Sha256.describe("the candidate's current revision, as the approver read it"),
});

export const ApprovalSchema = z.object({
  approvalRef: z.string().describe('the approval record id: what knowledge-state evolve and event transitions cite'),
  candidateId: z.string(),
  revision: Sha256,
  targetKind: TargetKind,
  targetId: z.string(),
  approvedBy: z.string(),
  approvedAt: z.string(),
});

export const ApprovalResponse = z.object({ approval: ApprovalSchema, candidate: CandidateSchema });

/* Regression */

export const RegressionOutcome = z.enum(['PASS', 'FAIL', 'FLAKY', 'NOT_RUN']);

export const RegressionResultRequest = z.object({
  item: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'a critical item name, e.g. eval-answerable'),
  result: RegressionOutcome,
  detail: z.string().max(4000),
  releaseId: id('defaults to the served release').optional(),
});

export const RegressionResultSchema = z.object({
  ...Versioned,
  releaseId: z.string(),
  item: z.string(),
  result: RegressionOutcome,
  detail: z.string(),
  recordedBy: z.string(),
});

export const RegressionResultResponse = z.object({ regressionResult: RegressionResultSchema });

export const BlockedQuery = z.object({ releaseId: id('defaults to the served release').optional() });

export const BlockedResponse = z.object({
  releaseId: z.string(),
  blocked: z.boolean(),
  reasons: z.array(z.string()),
  items: z.array(z.object({ item: z.string(), latest: RegressionResultSchema.nullable() })),
});

/* Historical replay */

export const ReplayQuery = z.object({ snapshotId: id('a stored snapshot id') });

export const ReplayResponse = z.union([
  z.object({
    status: z.literal('HIT'),
    snapshotId: z.string(),
    kind: z.string().describe('what produced the snapshot, e.g. insights'),
    payload: z.string().describe('the stored JSON text, byte for byte'),
    sha256: Sha256.describe('sha256 of payload (UTF-8)'),
    createdAt: z.string(),
  }),
  z.object({ status: z.literal('MISS'), snapshotId: z.string() }),
]);

/* Release impact manifests, pins and drift */

export const ManifestReadyResponse = z.object({
  manifestId: z.string(),
  valid: z.boolean(),
  errors: z.array(z.string()),
  changedItems: z.array(
    z.object({ candidateId: z.string(), status: CandidateStatus, revision: Sha256, approvalRef: z.string().nullable() }),
  ),
});

export const PinRequest = z.object({
  productId: id('one of the five products'),
  releaseId: id('a release with status released'),
});

export const PinSchema = z.object({
  ...Versioned,
  productId: z.string(),
  releaseId: z.string(),
  previousReleaseId: z.string().nullable(),
  pinnedBy: z.string(),
});

export const PinResponse = z.object({ pin: PinSchema });

export const DriftResponse = z.object({
  total: z.number().int(),
  latestReleaseId: z.string().nullable(),
  drifts: z.array(z.object({ productId: z.string(), pinnedReleaseId: z.string().nullable(), latestReleaseId: z.string() })),
  issueRefs: z.array(z.string()).describe('always empty: this read files nothing; a drift becomes an issue only through a handoff'),
});
