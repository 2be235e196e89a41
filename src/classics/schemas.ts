import { z } from 'zod';

/** Contract request schemas of the classics service (spec/classics-service.md). */

const text = (max: number) => z.string().max(max);

export const ExpressionMode = z.enum(['conversation', 'explain', 'study', 'professional', 'citation_first']);

export const TrustedQueryRequest = z.object({
  query: z.string().trim().min(1, 'query is required').max(2000),
  knowledge_scope: z.array(z.string().min(1).max(100)).min(1).max(20).default(['kb']),
  expression_mode: ExpressionMode.default('conversation'),
});

export const IlluminateRequest = z.object({
  query: z.string().trim().min(1, 'query is required').max(2000),
  minimal_context: text(2000).optional(),
});

export const InsightRequest = z.object({
  productId: z.string().min(1).max(100),
  scenario: z.string().min(1).max(200),
  privacyMode: z.enum(['private', 'public']),
  userText: z.string().max(4000).optional(),
  contextSummary: text(4000).optional(),
  knowledgePackIds: z.array(z.string().min(1).max(100)).max(20).optional(),
  maxInsights: z.number().int().min(1).max(4).optional(),
  maxActions: z.number().int().min(0).max(5).optional(),
  synthesize: z.boolean().optional(),
  evidenceFragments: z.array(z.object({ fragmentId: z.string().min(1).max(200) }).passthrough()).max(100).optional(),
  structuredContext: z
    .object({
      detectedTopics: z.array(text(200)).max(50).optional(),
      detectedChanges: z.array(text(200)).max(50).optional(),
      detectedQuestions: z.array(text(500)).max(50).optional(),
    })
    .optional(),
  userDisabledClassics: z.boolean().optional(),
  projectionId: z.string().min(1).max(100).optional(),
});

export const RuntimeMode = z.enum(['lookup', 'explore', 'compare', 'source', 'path', 'report_support']);

export const RuntimeRequest = z.object({
  runtimeMode: RuntimeMode,
  productId: z.string().min(1).max(100),
  productVersion: text(50).optional(),
  releaseId: text(100).optional(),
  locale: text(20).optional(),
  viewerClassId: text(100).optional(),
  rightsContextId: text(100).optional(),
  safetyProfileId: text(100).optional(),
  query: text(2000).optional(),
  objectId: text(200).optional(),
  relationId: text(200).optional(),
  pathId: text(200).optional(),
  sourceId: text(200).optional(),
  synthesize: z.boolean().optional(),
  knowledgePackIds: z.array(z.string().min(1).max(100)).max(20).optional(),
});

export const OrchestrateRequest = z.object({
  question: z.string().trim().min(1).max(2000),
  productId: z.string().min(1).max(100),
  personalContextRef: text(200).optional(),
  historicalSnapshotId: text(200).optional(),
});

export const FeedbackRequest = z.object({
  text: z.string().trim().min(1).max(4000),
  rating: z.number().int().min(1).max(5).optional(),
  targetIds: z.array(z.string().min(1).max(200)).max(50).optional(),
  productId: text(100).optional(),
});

export const ObservationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const AuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().min(1).optional(),
});

export const ReleaseQuery = z.object({ releaseId: text(100).optional() });

export const NeighborsQuery = z.object({
  releaseId: text(100).optional(),
  depth: z.coerce.number().int().min(1).max(3).default(1),
});

export const SubgraphRequest = z.object({
  seedIds: z.array(z.string().min(1).max(200)).min(1).max(50),
  depth: z.number().int().min(1).max(3).default(1),
  relationTypes: z.array(z.string().min(1).max(50)).max(20).optional(),
  nodeLimit: z.number().int().min(1).max(500).default(100),
  releaseId: text(100).optional(),
});

export const WorkbenchCandidatesQuery = z.object({
  status: text(50).optional(),
  kind: text(50).optional(),
});

export const BatchReviewRequest = z.object({
  ids: z.array(z.string().min(1).max(200)).min(1).max(500),
  decision: z.enum(['reviewed', 'withdrawn']),
  note: text(2000).optional(),
});

export const SupersedeRequest = z.object({ replacementReleaseId: z.string().min(1).max(100) });

export const ReferenceRequest = z.object({
  objectId: z.string().min(1).max(200),
  note: text(2000).optional(),
  owner: z.string().min(1).max(128).optional(),
});

export const ReferencesQuery = z.object({ owner: z.string().min(1).max(128).optional() });

export const IdParams = z.object({ id: z.string().min(1).max(200) });
export const AdapterParams = z.object({ adapterId: z.string().min(1).max(100) });

/** Bodies the contract leaves open: a JSON object, refined by the issue that implements the route. */
export const OpenObject = z.looseObject({});

/* Responses */

const Tradition = z.enum(['daoist', 'confucian', 'buddhist', 'yangming']);

export const PacksResponse = z.object({
  releaseId: z.string(),
  count: z.number().int(),
  packs: z.array(
    z.object({
      id: z.string(),
      version: z.string(),
      title: z.string(),
      title_zh: z.string(),
      kind: z.enum(['classic', 'cross']),
      traditions: z.array(Tradition),
      description: z.string(),
      sha256: z.string(),
      sourceIds: z.array(z.string()),
      counts: z.record(z.string(), z.number().int()),
    }),
  ),
});

export const ReleaseResponse = z.object({
  id: z.string(),
  status: z.enum(['released', 'candidate', 'withdrawn', 'superseded']),
  createdAt: z.string(),
  notes: z.string(),
  packs: z.array(z.object({ id: z.string(), version: z.string(), sha256: z.string() })),
  criticalItems: z.array(z.string()),
  current: z.boolean(),
});

export const SourcesResponse = z.object({
  protocol: z.literal('KB-TKP-1.0'),
  sources: z.array(
    z.object({
      source_id: z.string(),
      pack_id: z.string(),
      title: z.string(),
      title_en: z.string(),
      tradition: Tradition,
      edition: z.string(),
      source_grade: z.enum(['A', 'B', 'C']),
      license: z.string(),
      passages: z.number().int(),
    }),
  ),
  count: z.number().int(),
  by_grade: z.record(z.string(), z.array(z.string())),
});

export const GraphNodeSchema = z.object({
  id: z.string(),
  type: z.enum(['concept', 'passage', 'claim', 'source', 'situation']),
  label: z.string(),
  tradition: z.string().optional(),
  locator: z.string().optional(),
});
export const GraphEdgeSchema = z.object({ source: z.string(), target: z.string(), type: z.string() });

export const GraphNodeResponse = z.object({
  releaseId: z.string(),
  node: GraphNodeSchema,
  degree: z.number().int(),
  data: z.record(z.string(), z.unknown()),
});

export const NeighborsResponse = z.object({
  releaseId: z.string(),
  root: z.string(),
  depth: z.number().int(),
  nodes: z.array(GraphNodeSchema),
  edges: z.array(GraphEdgeSchema),
});

export const SubgraphResponse = z.object({
  releaseId: z.string(),
  seedIds: z.array(z.string()),
  depth: z.number().int(),
  nodes: z.array(GraphNodeSchema),
  edges: z.array(GraphEdgeSchema),
  truncated: z.boolean(),
});

export const TrustLevelSchema = z.enum(['T0', 'T1', 'T2', 'T3', 'T4']);

export const KnowledgeClaimSchema = z.object({
  claim_id: z.string(),
  statement: z.string(),
  claim_type: z.enum(['TEXT', 'FACT', 'INTERPRETATION', 'INFERENCE', 'OPINION', 'ACTION']),
  evidence_ids: z.array(z.string()).optional(),
  source_ids: z.array(z.string()).optional(),
  perspective: z.string().optional(),
  trust_level: TrustLevelSchema,
  conflict_status: z.enum(['none', 'minor', 'significant', 'unresolved']).optional(),
  truth_boundary: z.enum(['direct', 'inferred', 'applied']).optional(),
});

export const CitationSchema = z.object({
  citation_id: z.string(),
  claim_id: z.string(),
  evidence_id: z.string(),
  source_id: z.string(),
  display_label: z.string().optional(),
  locator: z.string().optional(),
  quote: z.string().optional(),
  trust_level: TrustLevelSchema.optional(),
});

export const AbstentionSchema = z
  .object({
    reason: z.enum(['GATE_BLOCKED', 'OUT_OF_SCOPE', 'NO_EVIDENCE', 'SIGNIFICANT_CONFLICT']),
    message: z.string(),
    category: z.string().optional().describe('The Gate category, when reason is GATE_BLOCKED'),
  })
  .nullable();

export const TrustedAnswerSchema = z
  .object({
    query_id: z.string(),
    answer: z.string(),
    trust: TrustLevelSchema.describe("The weakest trust level among the claims the answer rests on (T4 for an abstention)"),
    protocol: z.literal('KB-TKP-1.0'),
    answer_mode: z.string().optional().describe('A conversation, B explain, C study, D professional, E citation_first'),
    trust_label: z.string().optional(),
    claims: z.array(KnowledgeClaimSchema).optional(),
    citations: z.array(CitationSchema).optional(),
    rendered_answer: z.string().optional(),
    has_conflict: z.boolean().optional(),
    has_uncertainty: z.boolean().optional(),
    abstention: AbstentionSchema.optional(),
  })
  .meta({
    example: {
      query_id: 'tq_5b0c…',
      answer: 'Daodejing 8 likens the highest good to water.',
      trust: 'T0',
      protocol: 'KB-TKP-1.0',
      answer_mode: 'A',
      trust_label: 'T0 canonical text, quoted verbatim',
      claims: [],
      citations: [],
      rendered_answer: 'Daodejing 8 likens the highest good to water. (Sources: Daodejing 8)',
      has_conflict: false,
      has_uncertainty: false,
      abstention: null,
    },
  });

export const AuditEventSchema = z.object({
  seq: z.number().int(),
  query_id: z.string(),
  release_id: z.string(),
  gate: z.object({ allowed: z.boolean(), category: z.string().nullable(), ruleId: z.string().nullable() }),
  evidence_ids: z.array(z.string()),
  claim_ids: z.array(z.string()),
  dropped_claim_ids: z.array(z.string()),
  trust: TrustLevelSchema,
  abstention_reason: z.string().nullable(),
  expression_mode: z.string(),
  query_sha256: z.string(),
  timings_ms: z.record(z.string(), z.number()),
  actor: z.string(),
  created_at: z.string(),
  hash: z.string(),
});

export const AuditResponse = z.object({ protocol: z.literal('KB-TKP-1.0'), events: z.array(AuditEventSchema), count: z.number().int() });

export const VerifyResponse = z.object({
  ok: z.boolean(),
  rows: z.number().int(),
  headHash: z.string(),
  brokenAt: z.number().int().optional(),
  reason: z.string().optional(),
});
