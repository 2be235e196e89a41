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
