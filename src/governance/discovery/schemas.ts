import { z } from 'zod';
import { IssueCandidateSchema } from '../schemas.js';

export { IssueCandidateSchema };

/**
 * Zod schemas of the discovery table: the one definition of every request and response, from
 * which validation, the OpenAPI contract and the TypeScript types follow. Refusals that the
 * contract gives a 422 code (a web source asking to be trusted, a relation without a difference)
 * are rules in the domain modules, not schema constraints, so that they answer with that code
 * rather than 400.
 */

const text = (max: number) => z.string().max(max);
const id = z.string().min(1).max(200);

/* Shared pieces */

export const ActorHeaders = z.looseObject({
  'x-actor': z
    .string()
    .optional()
    .describe('`<kind>:<id>` with kind human, editorial, ai or system. Optional on proposals (the credential is recorded when absent); required for transitions; human or editorial for verify and accepted_for_governance.'),
});

export const EvidenceRef = z.object({
  kind: z.enum(['passage', 'url', 'record', 'document']).describe('passage: a locator or passage id of the served packs; url: a web address; record: a ledger record id; document: anything else'),
  ref: z.string().min(1).max(1000),
  note: text(1000).optional(),
});
export type EvidenceRef = z.infer<typeof EvidenceRef>;

const Versioned = {
  id: z.string(),
  version: z.number().int(),
  updatedBy: z.string(),
  updatedAt: z.string(),
};

const InjectionCategory = z.enum(['instruction_override', 'role_marker', 'invisible_characters', 'encoded_payload', 'hidden_markup']);
export const InjectionFlags = z.object({ flagged: z.boolean(), categories: z.array(InjectionCategory) });

export const IdParams = z.object({ id: id });

/* Sources */

export const SOURCE_TYPES = ['web', 'forum', 'social', 'book', 'edition', 'manuscript', 'journal', 'archive', 'dataset', 'other'] as const;
export const SourceType = z.enum(SOURCE_TYPES);

export const RegisterSourceRequest = z.object({
  name: z.string().min(1).max(300),
  type: SourceType.describe('web, forum and social are web-type: they can never back formal evidence'),
  url: text(2048).optional().describe('http or https; required for web-type sources'),
  description: text(2000).optional(),
  tradition: z.enum(['daoist', 'confucian', 'buddhist', 'yangming', 'cross']).optional(),
  trust: z.enum(['untrusted', 'qualified', 'trusted', 'formal']).optional().describe('a source always registers as untrusted; asking for anything else is refused (422 DISCOVERY_SOURCE_REJECTED)'),
});

export const SourceSchema = z.object({
  ...Versioned,
  name: z.string(),
  type: SourceType,
  url: z.string().nullable(),
  description: z.string().nullable(),
  tradition: z.string().nullable(),
  trust: z.enum(['untrusted', 'qualified']),
  webType: z.boolean(),
  formalEvidenceEligible: z.boolean().describe('true only after a human verified a qualification of a non-web source'),
  qualificationIds: z.array(z.string()),
  fingerprint: z.string(),
});

export const SourcesQuery = z.object({
  type: SourceType.optional(),
  trust: z.enum(['untrusted', 'qualified']).optional(),
});
export const SourcesResponse = z.object({ total: z.number().int(), sources: z.array(SourceSchema) });

/* Qualifications */

export const OpenQualificationRequest = z.object({
  sourceId: id,
  scope: z.string().min(1).max(500).describe('what the qualification would vouch for, e.g. "the received text of this edition"'),
  criteria: z.array(z.string().min(1).max(500)).max(20).optional(),
  evidence: z.array(EvidenceRef).max(50).optional(),
  status: z.enum(['not_qualified', 'qualified']).optional().describe('a qualification always starts not_qualified; asking for qualified is refused'),
});

export const QualificationSchema = z.object({
  ...Versioned,
  sourceId: z.string(),
  sourceType: SourceType,
  webType: z.boolean(),
  scope: z.string(),
  criteria: z.array(z.string()),
  evidence: z.array(EvidenceRef),
  status: z.enum(['not_qualified', 'qualified']),
  formalEvidence: z.boolean().describe('true only when qualified by a human and the source is not web-type'),
  verifiable: z.boolean().describe('false for web-type sources: their qualifications can never be verified'),
  verifiedBy: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  verificationNote: z.string().nullable(),
});
export const QualificationResponse = z.object({ qualification: QualificationSchema });
export const VerifyRequest = z.object({ note: text(2000).optional() });

/* Candidates */

export const CANDIDATE_STATES = ['new', 'screening', 'qualified', 'accepted_for_governance', 'handed_off', 'rejected', 'archived'] as const;
export const CandidateState = z.enum(CANDIDATE_STATES);
export const SIGNAL_KINDS = ['new_source', 'variant_reading', 'missing_relation', 'possible_conflict', 'gap', 'correction', 'web_result', 'other'] as const;
export const SignalKind = z.enum(SIGNAL_KINDS);

export const SignalRequest = z.object({
  objectId: z.string().min(1).max(200).describe('what the signal is about: a concept, passage locator, source or free subject; signals about the same object and kind are one candidate'),
  kind: SignalKind,
  summary: z.string().min(1).max(4000),
  title: text(300).optional(),
  sourceId: id.optional(),
  url: text(2048).optional(),
  evidence: z.array(EvidenceRef).max(50).optional(),
  formal: z.boolean().optional().describe('a discovery signal is never formal: true is refused'),
});

export const CandidateSchema = z.object({
  ...Versioned,
  kind: z.literal('discovery-candidate').describe('a discovery candidate, not an evolution candidate'),
  fingerprint: z.string(),
  objectId: z.string(),
  signalKind: SignalKind,
  title: z.string(),
  summary: z.string(),
  origin: z.enum(['signal', 'open-web']),
  state: CandidateState,
  trust: z.literal('untrusted'),
  formal: z.literal(false),
  sourceIds: z.array(z.string()),
  urls: z.array(z.string()),
  count: z.number().int(),
  signals: z.array(z.object({ ref: z.string(), actor: z.string(), at: z.string(), sourceId: z.string().nullable(), summary: z.string() })),
  evidence: z.array(EvidenceRef),
  injection: InjectionFlags,
  transitions: z.array(z.object({ from: CandidateState, to: CandidateState, actor: z.string(), at: z.string(), reason: z.string().nullable() })),
  handoffIds: z.array(z.string()),
  issueCandidateId: z.string().nullable(),
});
export const SignalResponse = z.object({ candidate: CandidateSchema, duplicate: z.boolean() });
export const CandidatesQuery = z.object({
  state: CandidateState.optional(),
  origin: z.enum(['signal', 'open-web']).optional(),
});
export const CandidatesResponse = z.object({ total: z.number().int(), candidates: z.array(CandidateSchema) });
export const TransitionRequest = z.object({ to: CandidateState, reason: text(2000).optional() });
export const CandidateResponse = z.object({ candidate: CandidateSchema });

/* Engines */

const Subject = z.string().min(1).max(300);
const Statements = z.array(text(2000)).max(20);

export const RelationRequest = z.object({
  from: Subject.describe('a concept id of the served packs or a free subject'),
  to: Subject,
  relationType: z.enum(['similar', 'contrasts', 'non_equivalent', 'part_of', 'parallels', 'influences']).default('parallels'),
  similarity: Statements.optional(),
  difference: Statements.optional().describe('required, at least one non-blank statement'),
  nonEquivalence: Statements.optional().describe('required, at least one non-blank statement: why the two must not be equated'),
  evidence: z.array(EvidenceRef).max(50).optional(),
  candidateRef: id.optional(),
});

const ProposalBase = {
  ...Versioned,
  formal: z.literal(false),
  candidateRef: z.string().nullable(),
  evidence: z.array(EvidenceRef),
  note: z.string(),
};

export const RelationProposalSchema = z.object({
  ...ProposalBase,
  engine: z.literal('relation'),
  status: z.literal('proposed'),
  from: z.string(),
  to: z.string(),
  known: z.object({ from: z.boolean(), to: z.boolean() }).describe('whether each side is a concept of the served packs'),
  relationType: z.string(),
  similarity: z.array(z.string()),
  difference: z.array(z.string()),
  nonEquivalence: z.array(z.string()),
});

export const ConflictRequest = z.object({
  subject: Subject,
  positions: z
    .array(z.object({ statement: z.string().min(1).max(2000), evidence: z.array(EvidenceRef).max(20).optional(), sourceId: id.optional() }))
    .min(2)
    .max(10),
  candidateRef: id.optional(),
});

export const ConflictProposalSchema = z.object({
  ...ProposalBase,
  engine: z.literal('conflict'),
  status: z.literal('marked'),
  subject: z.string(),
  positions: z.array(z.object({ statement: z.string(), evidence: z.array(EvidenceRef), sourceId: z.string().nullable() })),
  resolved: z.literal(false),
  resolution: z.null(),
});

export const GapRequest = z.object({
  subject: Subject,
  missing: z.string().min(1).max(2000).describe('what is missing'),
  expectedIn: text(300).optional().describe('where it would be expected, e.g. a pack or a concept'),
  evidence: z.array(EvidenceRef).max(50).optional(),
  candidateRef: id.optional(),
});

export const GapProposalSchema = z.object({
  ...ProposalBase,
  engine: z.literal('gap'),
  status: z.literal('annotated'),
  subject: z.string(),
  missing: z.string(),
  expectedIn: z.string().nullable(),
  filled: z.literal(false),
  fill: z.null(),
});

export const RelationResponse = z.object({ proposal: RelationProposalSchema });
export const ConflictResponse = z.object({ proposal: ConflictProposalSchema });
export const GapResponse = z.object({ proposal: GapProposalSchema });

/* Handoffs */

export const GOVERNANCE_REF_KINDS = [
  'issue-candidate',
  'evolution-candidate',
  'review-decision',
  'approval',
  'knowledge-conflict',
  'knowledge-state',
  'evolution-event',
  'audit-record',
] as const;
export const GovernanceRef = z.object({ kind: z.enum(GOVERNANCE_REF_KINDS), id: id });

export const HandoffRequest = z.object({
  discoveryCandidateRef: id.optional(),
  proposalRef: id.optional().describe('a proposal of the relation, conflict or gap engine'),
  governanceRefs: z.array(GovernanceRef).max(20).default([]).describe('existing governance records this discovery is handed to; at least one is required'),
  summary: text(2000).optional(),
});

export const HandoffSchema = z.object({
  ...Versioned,
  mode: z.enum(['manual', 'auto']),
  discoveryCandidateRef: z.string().nullable(),
  proposalRef: z.string().nullable(),
  governanceRefs: z.array(GovernanceRef),
  summary: z.string(),
  triage: z.literal('manual'),
});
export const HandoffResponse = z.object({ handoff: HandoffSchema });

export const AutoHandoffRequest = z.object({ discoveryCandidateRef: id });

export const AutoHandoffResponse = z.object({
  candidate: CandidateSchema,
  issueCandidate: IssueCandidateSchema,
  handoff: HandoffSchema,
  note: z.string(),
});

/* Trust: injection check */

export const InjectionCheckRequest = z.object({
  text: z.string().max(100_000),
  context: z.enum(['signal', 'web_result', 'external_pack', 'user_text', 'other']).optional().describe('where the text came from; reported back, not used by the rules'),
});
export const InjectionResultSchema = z.object({
  flagged: z.boolean(),
  blocked: z.literal(false),
  categories: z.array(InjectionCategory),
  findings: z.array(
    z.object({
      category: InjectionCategory,
      rule: z.string(),
      excerpt: z.string(),
      encoding: z.enum(['base64', 'hex', 'percent', 'html-entities', 'escapes']).optional(),
    }),
  ),
  checkedCharacters: z.number().int(),
  context: z.string().nullable(),
});
export const InjectionCheckResponse = z.object({ result: InjectionResultSchema });

/* Open web */

export const WebResultInput = z.object({ url: text(4096), title: text(1000), snippet: text(5000) });
export const OpenWebRequest = z.object({
  query: text(1000),
  results: z.array(WebResultInput).max(50).describe("the results the caller's own search returned; the service makes no outbound call"),
});
export const OpenWebResponse = z.object({
  result: z.object({
    query: z.string(),
    provider: z.string(),
    outboundCall: z.boolean(),
    formal: z.literal(false),
    accepted: z.number().int(),
    candidates: z.array(SignalResponse),
    rejected: z.array(z.object({ index: z.number().int(), url: z.string(), reason: z.string() })),
  }),
});

/* External packs */

export const ExternalPackRequest = z.object({
  manifest: z.looseObject({}).describe('id (lowercase slug), version (semver), title, publisher, license, files [{name, sha256}], optional homepage (http/https) and traditions; checked by the service (422 EXTERNAL_PACK_REJECTED)'),
});
export const ExternalPackSchema = z.object({
  ...Versioned,
  packId: z.string(),
  packVersion: z.string(),
  title: z.string(),
  publisher: z.string(),
  license: z.string(),
  homepage: z.string().nullable(),
  traditions: z.array(z.string()),
  files: z.array(z.object({ name: z.string(), sha256: z.string() })),
  formal: z.literal(false),
  trust: z.literal('untrusted'),
  status: z.literal('registered'),
  injection: InjectionFlags,
});
export const ExternalPackResponse = z.object({ pack: ExternalPackSchema });

/* Agent tools */

export const VerifyToolRequest = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string().min(1).max(500).describe('the path the agent intends to call, e.g. /api/classics/v1/evolution/approvals'),
  agent: text(200).optional().describe('the agent, for the observation log'),
});
export const ToolClass = z.enum(['read', 'proposal', 'governance_write', 'unknown']);
export const VerifyToolResponse = z.object({
  decision: z.object({
    allowed: z.boolean(),
    toolClass: ToolClass,
    method: z.string(),
    path: z.string(),
    operation: z.string().nullable().describe('the contract operation the call matched'),
    reason: z.string(),
  }),
});

/* Products matrix */

export const MatrixResponse = z.object({
  total: z.number().int(),
  capabilities: z.array(z.object({ name: z.string(), endpoint: z.string().nullable() })),
  products: z.array(z.object({ productId: z.string(), name: z.string(), capabilities: z.record(z.string(), z.boolean()) })),
});

/* Observation */

export const ObservationSummarySchema = z.object({
  file: z.string(),
  total: z.number().int().describe('well-formed lines'),
  skipped: z.number().int().describe('torn or corrupt lines, skipped and counted'),
  ok: z.number().int(),
  refused: z.number().int(),
  byOperation: z.record(z.string(), z.object({ ok: z.number().int(), refused: z.number().int() })),
  byCode: z.record(z.string(), z.number().int()),
  byActorKind: z.record(z.string(), z.number().int()),
  injection: z.object({ checked: z.number().int(), flagged: z.number().int() }),
  firstAt: z.string().nullable(),
  lastAt: z.string().nullable(),
});
export const ObservationResponse = z.object({ summary: ObservationSummarySchema });
