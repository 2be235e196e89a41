import { z } from 'zod';
import { AbstentionSchema, CitationSchema, KnowledgeClaimSchema, TrustLevelSchema } from '../schemas.js';

const Tradition = z.enum(['daoist', 'confucian', 'buddhist', 'yangming']);

export const IlluminateAnswerSchema = z.object({
  query_id: z.string(),
  protocol: z.literal('KB-Illumination-1.1'),
  context: z.object({
    surface_question: z.string(),
    tension: z.string().nullable(),
    context_confidence: z.enum(['C1', 'C2', 'C3']).describe('C1 the question alone, C2 with some situational signal, C3 explicit context given'),
    situation_id: z.string().nullable(),
    language: z.enum(['zh', 'en']),
  }),
  focused_question: z.object({ text: z.string(), basis: z.enum(['situation', 'concepts', 'question']), concept_ids: z.array(z.string()) }),
  perspectives: z
    .array(
      z.object({
        tradition: Tradition,
        school: z.string().describe('道, 儒, 佛 or 心'),
        text: z.string().describe('50-100 characters (code points) in the question language'),
        evidence_ids: z.array(z.string()),
        trust: TrustLevelSchema,
        has_evidence: z.boolean().describe('false: the tradition has no evidence here, the text says so and the trust is T4'),
      }),
    )
    .describe('Daoist, Confucian, Buddhist, Yangming in that order; empty when the answer is an abstention'),
  contrast: z.object({
    consensus: z.string(),
    differences: z.array(z.object({ tradition: Tradition, school: z.string(), emphasis: z.string() })),
  }),
  insight: z.object({ text: z.string(), reflective_question: z.string(), small_action: z.string().nullable() }),
  claims: z.array(KnowledgeClaimSchema),
  citations: z.array(CitationSchema),
  evidence_drawer: z.array(
    z.object({ evidence_id: z.string(), locator: z.string(), display_locator: z.string(), text: z.string(), en: z.string().nullable(), source_id: z.string(), tradition: Tradition }),
  ),
  overall_trust: TrustLevelSchema.describe('the weakest trust among the perspectives that have evidence (T4 when none has)'),
  has_conflict: z.boolean(),
  abstention: AbstentionSchema.describe('GATE_BLOCKED (with the Gate category) or OUT_OF_SCOPE; perspectives is then empty'),
});

const InsightCitations = z.array(CitationSchema);

export const SynthesizedSchema = z.object({
  overview: z.string(),
  layers: z.array(z.object({ layer: z.enum(['self', 'relational', 'cosmic']), title: z.string(), insight: z.string(), axes: z.array(z.string()) })),
  traditions: z.object({ names: z.array(z.string()), convergence: z.string(), divergence: z.string() }),
  schools: z.object({
    engaged: z.array(z.string()),
    missing: z.array(z.string()),
    perSchool: z.array(z.object({ school: z.string(), stance: z.string(), inferred: z.boolean() })),
  }),
  singleTraditionNote: z.string().nullable(),
  nonEquivalences: z.array(z.string()),
  actionPlan: z.object({ steps: z.array(z.string()), path: z.string(), cadence: z.string() }),
  sources: z.array(z.object({ id: z.string(), title: z.string(), lensId: z.string() })),
});

export const InsightBundleSchema = z.object({
  requestId: z.string(),
  productId: z.string(),
  outputSnapshotId: z.string().describe('replay it exactly with GET /evolution/historical/replay?snapshotId='),
  classicModuleUsed: z.boolean(),
  noUseReason: z.enum(['GATE_BLOCKED', 'USER_DISABLED']).nullable(),
  gateCategory: z.string().nullable().optional(),
  situationSummary: z.string().optional().describe('in private mode a situation title, never the user text'),
  userTextSha256: z.string().optional(),
  situationConfidence: z.enum(['C1', 'C2', 'C3']).optional(),
  intentType: z.string().optional(),
  riskLevel: z.enum(['low', 'medium', 'high']).optional(),
  situationIds: z.array(z.string()),
  releaseIds: z.array(z.string()),
  limitations: z.array(z.string()),
  integratedPacks: z.array(z.string()),
  packVersions: z.record(z.string(), z.string()),
  evidenceFragments: z.array(z.object({ fragmentId: z.string(), used: z.boolean(), reason: z.string() })),
  insights: z.array(
    z.object({
      insightId: z.string(),
      packId: z.string(),
      tradition: Tradition,
      school: z.string(),
      title: z.string(),
      text: z.string(),
      trust: TrustLevelSchema,
      citations: InsightCitations,
    }),
  ),
  actions: z.array(z.object({ actionId: z.string(), kind: z.enum(['practice', 'reflection', 'reading']), text: z.string() })),
  synthesized: SynthesizedSchema.optional(),
  dimensionMaterialsCount: z.number().int().optional(),
});
