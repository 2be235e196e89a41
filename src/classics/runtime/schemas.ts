import { z } from 'zod';
import { IlluminateAnswerSchema, InsightBundleSchema } from '../illumination/schemas.js';
import * as S from '../schemas.js';

/**
 * Request extensions and response schemas of the runtime, adapters, observations, orchestration,
 * feedback, workbench (v3) and personal-graph endpoints: the one source of validation, of the
 * OpenAPI contract and of the TypeScript types the domain modules return. docs/runtime.md explains
 * every field the contract leaves open.
 */

const Locale = z.enum(['zh', 'en']).describe('the language texts are given in: `locale` when it starts with zh or en, else the language of `query`, else en');
const Tradition = z.enum(['daoist', 'confucian', 'buddhist', 'yangming']);
const TraditionOrCommon = z.enum(['daoist', 'confucian', 'buddhist', 'yangming', 'common', 'cross']);

/* Requests */

export const RuntimeRequestBody = S.RuntimeRequest.extend({
  offset: z.number().int().min(0).max(100_000).optional().describe('source mode: index of the first passage of the page (default 0)'),
  limit: z.number().int().min(1).max(100).optional().describe('source mode: passages per page, 1-100 (default 20)'),
});
export type RuntimeRequestBody = z.infer<typeof RuntimeRequestBody>;

export const OrchestrateRequestBody = S.OrchestrateRequest.extend({
  owner: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('whose personalContextRef this is: required with a service token when personalContextRef is given; a per-user key may only name its own owner'),
});

export const CandidateStatus = z.enum(['draft', 'reviewed', 'withdrawn']);
export const CandidateKind = z.enum(['dimension', 'patch']);

export const CandidatesQuery = z.object({
  status: CandidateStatus.optional(),
  kind: CandidateKind.optional(),
});

/* Shared views */

export const PassageRef = z.object({
  id: z.string(),
  locator: z.string(),
  sourceId: z.string(),
  packId: z.string(),
  tradition: Tradition,
  text: z.string().describe('the received text, verbatim'),
  en: z.string().nullable().describe('English rendering, when the pack has one'),
});

export const ClaimView = z.object({
  id: z.string(),
  statement: z.string(),
  claim_type: S.KnowledgeClaimSchema.shape.claim_type,
  trust_level: S.TrustLevelSchema,
  truth_boundary: z.enum(['direct', 'inferred', 'applied']),
  perspective: z.string(),
  evidenceIds: z.array(z.string()),
  conceptIds: z.array(z.string()),
});

export const ConceptRef = z.object({
  id: z.string(),
  zh: z.string(),
  en: z.string(),
  pinyin: z.string(),
  tradition: TraditionOrCommon,
  definition: z.string().describe('in the result locale'),
});

export const RelationView = z.object({
  source: z.string(),
  type: z.enum(['similar', 'contrasts', 'non_equivalent', 'part_of']),
  target: z.string(),
  targetLabel: z.string(),
  note: z.string(),
  direction: z.enum(['outgoing', 'incoming']).describe('outgoing: declared on this concept; incoming: declared on the other concept about this one'),
});

export const MisreadingView = z.object({
  id: z.string(),
  wrong: z.string(),
  why: z.string(),
  correction: z.string(),
  conceptIds: z.array(z.string()),
  evidenceLocators: z.array(z.string()),
});

export const ConflictView = z.object({
  id: z.string(),
  severity: z.enum(['minor', 'significant']),
  topic: z.string(),
  note: z.string(),
  positions: z.array(z.object({ label: z.string(), claimIds: z.array(z.string()) })),
});

export const SourceView = z.object({
  id: z.string(),
  packId: z.string(),
  title: z.string(),
  title_en: z.string(),
  tradition: z.string(),
  edition: z.string(),
  source_grade: z.enum(['A', 'B', 'C']).describe('A canonical original text, B classical commentary, C modern gloss written by this project'),
  license: z.string(),
  provenance: z.string().nullable(),
  passageCount: z.number().int(),
});

const Envelope = {
  productId: z.string(),
  releaseId: z.string().describe('the release the answer was computed on'),
  locale: Locale,
  knowledgePackIds: z.array(z.string()).describe('the packs in scope: the request, else the product default packs, else every pack'),
};

const Abstention = z.object({
  reason: z.literal('GATE_BLOCKED'),
  category: z.string().nullable().describe('the Gate category (divination, medical, misreading, ...)'),
  message: z.string(),
});

/* Per-mode results */

const LookupObject = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('passage'),
    id: z.string(),
    label: z.string(),
    locator: z.string(),
    text: z.string(),
    en: z.string().nullable(),
    title: z.string().nullable(),
    sourceId: z.string(),
    packId: z.string(),
    tradition: Tradition,
  }),
  z.object({
    type: z.literal('concept'),
    id: z.string(),
    label: z.string(),
    zh: z.string(),
    zh_traditional: z.string(),
    pinyin: z.string(),
    en: z.string(),
    aliases: z.array(z.string()),
    tradition: TraditionOrCommon,
    definition: z.string(),
    keyLocators: z.array(z.string()),
  }),
  z.object({
    type: z.literal('claim'),
    id: z.string(),
    label: z.string(),
    statement: z.string(),
    claim_type: S.KnowledgeClaimSchema.shape.claim_type,
    trust_level: S.TrustLevelSchema,
    truth_boundary: z.enum(['direct', 'inferred', 'applied']),
    perspective: z.string(),
    packId: z.string(),
    evidence: z.array(z.object({ passageId: z.string(), locator: z.string(), quote: z.string() })),
  }),
  z.object({ type: z.literal('source'), label: z.string(), ...SourceView.shape }),
  z.object({
    type: z.literal('situation'),
    id: z.string(),
    label: z.string(),
    title: z.string(),
    domain: z.string(),
    tension: z.string(),
    phrasings: z.array(z.string()),
  }),
]);

export const LookupResult = z
  .object({
    runtimeMode: z.literal('lookup'),
    ...Envelope,
    abstention: z.null(),
    object: LookupObject.describe('the object, by type: passage, concept, claim, source or situation'),
    relations: z.array(RelationView).describe("a concept's typed relations (similar, contrasts, non_equivalent, part_of), declared on it or on the other concept"),
    graph: z
      .object({ nodes: z.array(S.GraphNodeSchema), edges: z.array(S.GraphEdgeSchema), truncated: z.boolean() })
      .describe('the object and its neighbours at depth 1 in the v2 graph (at most 100 nodes)'),
    claims: z.array(ClaimView).describe('claims about the object or bound to it, in scope, strongest trust first (at most 20)'),
    concepts: z.array(ConceptRef).describe('concepts the object names or is linked to'),
    misreadings: z.array(MisreadingView),
    conflicts: z.array(ConflictView).describe('recorded conflicts any of the claims take part in'),
    citations: z.array(S.CitationSchema).describe('verbatim citations of the claims'),
  })
  .describe('lookup: objectId -> the object with its relations');

export const SituationView = z.object({
  id: z.string(),
  title: z.string(),
  domain: z.string(),
  tension: z.string(),
  coverage: z.number().describe("share of the query's rarity-weighted terms found in the situation's phrasings, title and tension"),
  perspectives: z.array(z.object({ tradition: Tradition, text: z.string(), passages: z.array(PassageRef) })),
  conceptIds: z.array(z.string()),
});

export const ExploreResult = z
  .object({
    runtimeMode: z.literal('explore'),
    ...Envelope,
    abstention: z.null(),
    query: z.string(),
    matchedSituations: z.array(SituationView).describe('life situations the query describes (at most 3, best first); perspectives keep only passages in scope'),
    concepts: z
      .array(ConceptRef.extend({ relations: z.array(RelationView), detected: z.boolean().describe('true: named in the query; false: reached through a matched situation') }))
      .describe('concepts named in the query and concepts of the matched situations, each with its typed relations'),
    illumination: IlluminateAnswerSchema.describe('the illumination of the query, as POST /illuminate gives it (computed over the whole release)'),
  })
  .describe('explore: query -> situation illumination expansion');

const EvidenceSet = z.object({
  passages: z.array(z.object({ id: z.string(), locator: z.string(), quote: z.string() })).describe('at most 4'),
  claims: z.array(z.object({ id: z.string(), statement: z.string(), trust_level: S.TrustLevelSchema })).describe('at most 4'),
});

export const Dimension = z.object({
  dimension: z.string().describe('what is compared: relation.similar, relation.part_of, relation.contrasts, relation.non_equivalent, shared-concept, shared-evidence, tradition, definition, conflict.topic, conflict.position, conflict.severity'),
  statement: z.string(),
  evidence: EvidenceSet,
  caveat: z.string().nullable().describe('set on a similarity between objects the packs mark non_equivalent: the similarity never equates them'),
});

export const CompareSide = z.object({ id: z.string(), type: z.string(), label: z.string() });

export const CompareResult = z
  .object({
    runtimeMode: z.literal('compare'),
    ...Envelope,
    abstention: z.null(),
    compare: z.object({
      subject: z.object({
        kind: z.enum(['relation', 'conflict', 'objects']),
        relationId: z.string().nullable(),
        relationType: z.string().nullable(),
        note: z.string().nullable(),
        left: CompareSide,
        right: CompareSide,
      }),
      equivalence: z
        .enum(['non_equivalent', 'not_asserted'])
        .describe('non_equivalent when the packs mark the two (or concepts they stand for) non_equivalent; a comparison never answers "equivalent"'),
      similarity: z.array(Dimension),
      difference: z.array(Dimension),
      nonEquivalence: z.array(Dimension),
      positions: z.array(z.object({ label: z.string(), objectId: z.string().nullable(), claimIds: z.array(z.string()) })),
      claims: z.array(ClaimView),
      severity: z.enum(['none', 'minor', 'significant']).describe('severity of the recorded conflict; none for a relation or two objects'),
    }),
    citations: z.array(S.CitationSchema),
  })
  .describe('compare: relationId (a concept relation or a conflict id), or objectId and query naming two objects');

export const SourceResult = z
  .object({
    runtimeMode: z.literal('source'),
    ...Envelope,
    abstention: z.null(),
    source: SourceView,
    passages: z.object({
      offset: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      nextOffset: z.number().int().nullable().describe('offset of the next page; null on the last page'),
      items: z.array(PassageRef),
    }),
  })
  .describe('source: sourceId -> metadata, edition, grade and a page of its passages in reading order');

export const PathResult = z
  .object({
    runtimeMode: z.literal('path'),
    ...Envelope,
    abstention: z.null(),
    path: z.object({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      tradition: z.string(),
      length: z.number().int(),
      steps: z.array(
        z.object({
          order: z.number().int().describe('1-based position on the path'),
          passage: PassageRef,
          why: z.string().describe('why this passage follows the previous one'),
          follows: z.string().nullable().describe('id of the passage this one follows; null for the first step'),
        }),
      ),
    }),
    source: SourceView.nullable().describe('the anchor source named by sourceId, else null'),
    claims: z.array(ClaimView),
    citations: z.array(S.CitationSchema),
  })
  .describe('path: pathId -> the reading path, its passages in order with why each follows');

export const ReportSupportResult = z
  .object({
    runtimeMode: z.literal('report_support'),
    ...Envelope,
    abstention: z.null(),
    query: z.string(),
    ...InsightBundleSchema.shape,
    citations: z.array(S.CitationSchema).describe('verbatim citations of the passages the report rests on'),
  })
  .describe('report_support: query -> the InsightBundle of POST /insights with synthesize=true (its fields at the top level) plus citations');

export const BlockedResult = z
  .object({
    runtimeMode: S.RuntimeMode,
    ...Envelope,
    abstention: Abstention,
  })
  .describe('the Gate blocked `query`: 200 with the abstention and no mode payload');

export const RuntimeResult = z.union([BlockedResult, LookupResult, ExploreResult, CompareResult, SourceResult, PathResult, ReportSupportResult]);
export type RuntimeResult = z.infer<typeof RuntimeResult>;
export type LookupResult = z.infer<typeof LookupResult>;
export type ExploreResult = z.infer<typeof ExploreResult>;
export type CompareResult = z.infer<typeof CompareResult>;
export type SourceResult = z.infer<typeof SourceResult>;
export type PathResult = z.infer<typeof PathResult>;
export type ReportSupportResult = z.infer<typeof ReportSupportResult>;
export type BlockedResult = z.infer<typeof BlockedResult>;
export type Dimension = z.infer<typeof Dimension>;
export type ClaimView = z.infer<typeof ClaimView>;
export type PassageRef = z.infer<typeof PassageRef>;
export type ConceptRef = z.infer<typeof ConceptRef>;
export type RelationView = z.infer<typeof RelationView>;
export type SourceView = z.infer<typeof SourceView>;

/* Adapters */

export const AdapterView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  defaultProjectionId: z.string(),
  defaultPackIds: z.array(z.string()),
  requestShape: z.record(z.string(), z.unknown()).describe("JSON Schema of the product's own request"),
  runtimeMapping: z.record(z.string(), z.string()).describe('runtimeMode, and `<runtimeField>From: <productField>` for each mapped field'),
  responseProjection: z.object({ fields: z.array(z.string()).describe('dotted paths into the runtime result') }),
});

export const AdaptersResponse = z.object({ releaseId: z.string(), total: z.number().int(), adapters: z.array(AdapterView) });

export const AdapterExecuteResponse = z.object({
  adapterId: z.string(),
  productRequest: z.record(z.string(), z.unknown()).describe("the product's request as received"),
  runtime: RuntimeRequestBody.describe('the runtime request it was mapped to'),
  response: z
    .record(z.string(), z.unknown())
    .describe("the runtime result projected to the product's responseProjection.fields (paths the result lacks are left out); a Gate-blocked request projects to {abstention}"),
});

/* Observations */

export const ObservationRecord = z.object({
  at: z.string(),
  mode: S.RuntimeMode.nullable().describe('null when the call failed before a mode was known (an unknown adapter)'),
  productId: z.string().nullable(),
  adapter: z.string().nullable().describe('adapter id for an adapter call; null for POST /runtime'),
  durationMs: z.number(),
  outcome: z.enum(['ok', 'abstained', 'client_error', 'server_error']),
  status: z.number().int(),
  releaseId: z.string().nullable(),
});

export const ModeSummary = z.object({
  count: z.number().int(),
  errors: z.number().int().describe('calls answered 4xx or 5xx'),
  p50: z.number().describe('duration percentiles in ms (nearest rank) over the retained records'),
  p95: z.number(),
  p99: z.number(),
});

export const ObservationsResponse = z.object({
  capacity: z.number().int().describe('the ring buffer keeps this many most recent calls; the summary covers them'),
  retained: z.number().int(),
  totalObserved: z.number().int().describe('calls observed since start, including those the buffer no longer holds'),
  summary: z.record(z.string(), ModeSummary).describe('per runtime mode; `unknown` for calls with no mode'),
  recent: z.array(ObservationRecord).describe('the most recent `limit` records, newest first'),
});

/* Orchestrate */

const TraceStep = z.object({ step: z.enum(['intent', 'route', 'plan', 'select', 'assemble', 'trace']), durationMs: z.number(), detail: z.string() });

export const PlannedCall = z.object({
  order: z.number().int(),
  mode: S.RuntimeMode,
  request: RuntimeRequestBody,
  reason: z.string(),
});

export const OrchestrateLive = z.object({
  orchestrationId: z.string(),
  snapshotId: z.string().describe('this answer is stored as a snapshot; pass it as historicalSnapshotId to replay it exactly'),
  question: z.string(),
  productId: z.string(),
  releaseId: z.string(),
  intent: z.object({
    kind: z.enum(['textual', 'conceptual', 'comparative', 'situational', 'blocked']),
    lang: z.enum(['zh', 'en']),
    concepts: z.array(z.string()),
    references: z.array(z.string()).describe('passages the question points at by locator'),
    packsNamed: z.array(z.string()),
    gate: z.object({ allowed: z.boolean(), category: z.string().nullable() }),
  }),
  routePlan: z.object({ modes: z.array(S.RuntimeMode), reason: z.string(), calls: z.array(PlannedCall) }),
  selection: z.object({
    knowledgePackIds: z.array(z.string()),
    reason: z.string(),
    personalContext: z.object({ referenceId: z.string(), objectId: z.string(), note: z.string().nullable() }).nullable(),
  }),
  assembled: z.array(z.object({ order: z.number().int(), mode: S.RuntimeMode, status: z.enum(['ok', 'abstained', 'failed']), summary: z.string(), result: RuntimeResult.nullable() })),
  trace: z.array(TraceStep),
  explanation: z.string().describe('what a product can show: which modes and packs were chosen and why, and what was assembled'),
});

export const OrchestrateReplay = z.object({
  replay: z.discriminatedUnion('status', [
    z.object({
      status: z.literal('HIT'),
      snapshotId: z.string(),
      kind: z.string().describe('what produced the snapshot, e.g. orchestrate or insights'),
      createdAt: z.string(),
      sha256: z.string(),
      payload: z.string().describe('the exact JSON text stored, byte for byte'),
    }),
    z.object({ status: z.literal('MISS'), snapshotId: z.string(), message: z.string() }),
  ]),
});

export const OrchestrateResponse = z.union([OrchestrateReplay, OrchestrateLive]);
export type OrchestrateLive = z.infer<typeof OrchestrateLive>;
export type OrchestrateResponse = z.infer<typeof OrchestrateResponse>;

/* Feedback */

export const FeedbackResponse = z.object({
  received: z.literal(true),
  feedbackId: z.string(),
  issueCandidateId: z.string().describe('the issue candidate the feedback joined or opened (the first, with several targets)'),
  issueCandidateIds: z.array(z.string()).describe('one per target id (or one for the product or general feedback)'),
  note: z.string(),
});

/* Workbench */

const Versioned = {
  id: z.string(),
  version: z.number().int(),
  updatedBy: z.string(),
  updatedAt: z.string(),
};

export const WorkbenchCandidateSchema = z.object({
  ...Versioned,
  kind: CandidateKind,
  status: CandidateStatus,
  targetId: z.string().describe('the pack object the candidate is about (a concept, or a concept relation `a|type|b`)'),
  title: z.string(),
  proposal: z.discriminatedUnion('op', [
    z.object({
      op: z.literal('relation-dimensions'),
      relationId: z.string(),
      relationType: z.enum(['similar', 'contrasts']),
      similarity: z.string(),
      difference: z.string(),
      nonEquivalence: z.string(),
    }),
    z.object({ op: z.literal('add-claim'), conceptId: z.string(), reason: z.string() }),
    z.object({ op: z.literal('add-key-passage'), conceptId: z.string(), reason: z.string() }),
  ]),
  origin: z.enum(['seed']).describe('seed: derived from the packs at first start'),
  review: z.object({ decision: CandidateStatus, note: z.string().nullable(), reviewId: z.string().nullable(), by: z.string() }).nullable(),
});
export type WorkbenchCandidate = Omit<z.infer<typeof WorkbenchCandidateSchema>, keyof typeof Versioned>;

export const CandidatesResponse = z.object({ total: z.number().int(), candidates: z.array(WorkbenchCandidateSchema) });

export const BatchReviewResponse = z.object({
  decision: z.enum(['reviewed', 'withdrawn']),
  updated: z.number().int().describe('how many candidates changed state'),
  updatedIds: z.array(z.string()),
  skipped: z.array(z.object({ id: z.string(), reason: z.enum(['NOT_FOUND', 'NOT_DRAFT', 'DUPLICATE']), status: CandidateStatus.nullable() })),
  reviewId: z.string().nullable().describe('the machine review record (null when nothing changed)'),
  auditId: z.string().nullable().describe('the audit entry (null when nothing changed)'),
});

export const WithdrawObjectResponse = z.object({
  id: z.string(),
  objectType: z.enum(['workbench-candidate', 'concept', 'passage', 'claim', 'source', 'situation', 'path', 'conflict']),
  status: z.literal('withdrawn'),
  previousStatus: z.string(),
  changed: z.boolean().describe('false when the object was already withdrawn'),
  version: z.number().int(),
});

export const ReleaseStateResponse = z.object({
  releaseId: z.string(),
  status: z.enum(['released', 'candidate', 'withdrawn', 'superseded']),
  previousStatus: z.enum(['released', 'candidate', 'withdrawn', 'superseded']),
  replacementReleaseId: z.string().nullable(),
  changed: z.boolean().describe('false when the release was already in that state'),
  version: z.number().int().describe('version of the release-state record; 0 when none was ever written'),
});

/* Personal graph */

export const ReferenceSchema = z.object({
  ...Versioned,
  owner: z.string(),
  objectId: z.string(),
  objectType: z.string(),
  label: z.string(),
  note: z.string().nullable(),
});

export const ReferenceResponse = z.object({ reference: ReferenceSchema, created: z.boolean().describe('false when the owner had saved this object before: the note was updated') });
export const ReferencesResponse = z.object({ owner: z.string(), total: z.number().int(), references: z.array(ReferenceSchema) });
