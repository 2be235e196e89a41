/**
 * Request and response schemas of the knowledge-evolution routes built in this part: change
 * signals, knowledge states, semantic drift and graph evolution. Each payload is defined once
 * here; validation, the OpenAPI contract and the TypeScript types of the domain modules come from it.
 *
 * Fields whose absence is a governance refusal (422 with the endpoint's code, as the contract asks)
 * are optional here and checked by the domain module; a wrong type or an unknown enum value is a
 * request validation failure (400).
 */
import { z } from 'zod';
import { IssueCandidateSchema } from '../schemas.js';

export { IssueCandidateSchema };

/* Shared pieces */

/** What a record's current version carries besides its body (see Records). */
const versionMeta = {
  id: z.string().describe('Record id'),
  version: z.number().int().describe('Ledger version of this record: 1 at creation, +1 per appended change'),
  updatedBy: z.string().describe('Actor that wrote this version (`kind:id`, or `key:<keyId>` when no X-Actor was sent)'),
  updatedAt: z.string().describe('When this version was appended (ISO 8601)'),
};
const versioned = <S extends z.ZodRawShape>(shape: S) => z.object({ ...shape, ...versionMeta });

export const Evidence = z
  .array(z.union([z.string().min(1).max(2000), z.looseObject({})]))
  .max(50)
  .describe('Evidence: passage ids, locators, URLs, or objects describing a source');

export const PrioritySchema = z.enum(['P0', 'P1', 'P2', 'P3']);

/** What an objectId names in the served release; `unknown` when it is not in it. */
export const ObjectKind = z
  .enum(['passage', 'claim', 'concept', 'source', 'situation', 'unknown'])
  .describe('What the objectId names in the served release (`unknown`: not in it)');

const HandoffNote = z.string().describe('What the handoff did and did not decide');

/* Change signals */

export const ChangeFilterReason = z.enum(['unchanged', 'whitespace', 'punctuation', 'script', 'duplicate']);
export const ChangeSignalStatus = z.enum(['filtered', 'open', 'handed_off']);

export const ChangeSignalRequest = z.object({
  objectId: z.string().max(200).optional().describe('Required: the passage id or locator, claim id, concept id... that changed'),
  before: z.string().max(20000).optional().describe('Required: the text before the change (may be empty for an insertion)'),
  after: z.string().max(20000).optional().describe('Required: the text after the change (may be empty for a deletion)'),
  source: z.string().max(200).optional().describe('Required: where the change was detected (e.g. `pack-diff:2026.11.1`, `ocr`, `user-report`)'),
  evidence: Evidence.optional(),
});

export const ChangeSignalSchema = versioned({
  objectId: z.string(),
  objectKind: ObjectKind,
  before: z.string(),
  after: z.string(),
  source: z.string(),
  evidence: Evidence,
  accepted: z.boolean().describe('false when the false-change filter caught it; detection is never a decision'),
  filter: z
    .object({ reason: ChangeFilterReason, message: z.string(), duplicateOf: z.string().nullable() })
    .nullable()
    .describe('Why the signal was filtered (null when accepted)'),
  qualificationQuestions: z.array(z.string()).describe('2-4 questions a human must answer before the change can become a candidate (empty when filtered)'),
  priority: PrioritySchema.nullable().describe('Suggested priority by rule (null when filtered); triage sets the real one'),
  priorityReason: z.string().nullable(),
  status: ChangeSignalStatus,
  issueCandidateId: z.string().nullable(),
});
export type ChangeSignal = Omit<z.infer<typeof ChangeSignalSchema>, keyof typeof versionMeta>;

export const ChangeSignalResponse = z.object({ signal: ChangeSignalSchema, accepted: z.boolean() });
export const ChangeSignalsQuery = z.object({
  status: ChangeSignalStatus.optional(),
  objectId: z.string().max(200).optional(),
});
export const ChangeSignalsResponse = z.object({ total: z.number().int(), signals: z.array(ChangeSignalSchema) });
export const ChangeHandoffResponse = z.object({ signal: ChangeSignalSchema, issueCandidate: IssueCandidateSchema, note: HandoffNote });

/* Knowledge state */

const StateContent = z.record(z.string(), z.unknown());
export const StateChange = z.enum(['create', 'evolve', 'rollback']);

export const KnowledgeStateSchema = versioned({
  objectId: z.string(),
  content: StateContent.describe('The knowledge object at this version (a JSON object)'),
  change: StateChange.describe('What appended this version'),
  approvalRef: z.string().nullable().describe('The approval an evolve applied (null otherwise)'),
  rolledBackToVersion: z.number().int().nullable().describe('The version a rollback restored (null otherwise)'),
  note: z.string().nullable(),
});
export type KnowledgeState = Omit<z.infer<typeof KnowledgeStateSchema>, keyof typeof versionMeta>;

export const StateCreateRequest = z.object({
  objectId: z.string().max(200).optional().describe('Required: the knowledge object this state tracks; one state per objectId'),
  content: z.unknown().optional().describe('Required: a JSON object (arrays, strings, numbers and null are refused with 422)'),
  note: z.string().max(2000).optional(),
});
export const StateEvolveRequest = z.object({
  content: z.unknown().optional().describe('Required: the new content, a JSON object'),
  approvalRef: z.string().max(200).optional().describe('Required: id of an approval record whose targetId is this objectId'),
  note: z.string().max(2000).optional(),
});
const VersionRef = z.string().regex(/^v?[1-9]\d{0,8}$/, 'a version: 2 or v2');
export const StateRollbackRequest = z.object({
  toVersion: z
    .union([z.number().int().min(1), VersionRef])
    .optional()
    .describe('Required: an earlier version of this state (2 or "v2")'),
  note: z.string().max(2000).optional(),
});
export const StateCompareQuery = z.object({
  objectId: z.string().min(1).max(200),
  from: VersionRef.describe('Version to compare from (2 or v2)'),
  to: VersionRef.describe('Version to compare to (2 or v2)'),
});

export const StateResponse = z.object({ state: KnowledgeStateSchema });
export const StateEvolveResponse = z.object({ previous: KnowledgeStateSchema, next: KnowledgeStateSchema });
export const StateRollbackResponse = z.object({ previous: KnowledgeStateSchema, rolledBack: KnowledgeStateSchema });
export const StateHistoryResponse = z.object({ objectId: z.string(), history: z.array(KnowledgeStateSchema) });
export const StateDiff = z.object({
  changed: z.array(z.string()).describe('Top-level keys present in both versions with different values'),
  removed: z.array(z.string()).describe('Keys in `from` only'),
  added: z.array(z.string()).describe('Keys in `to` only'),
  unchanged: z.array(z.string()).describe('Keys present in both with equal values'),
});
export const StateCompareResponse = z.object({ objectId: z.string(), from: z.number().int(), to: z.number().int(), diff: StateDiff });

/* Semantic drift */

export const DriftLayer = z.enum(['lexical', 'conceptual', 'interpretive', 'practical']);
export const DriftKind = z.enum(['broadening', 'narrowing', 'amelioration', 'pejoration', 'reinterpretation', 'conflation']);
export const DriftDomain = z.enum(['textual', 'linguistic', 'historical', 'cultural', 'philosophical', 'practical']);
export const GroundType = z.enum(['similarity', 'usage', 'citation', 'commentary']);
export const DriftSignalStatus = z.enum(['filtered', 'open', 'handed_off']);

export const Ground = z.looseObject({
  type: GroundType,
  ref: z.string().max(500).optional().describe('What the ground points at: a passage id or locator, a commentary, a corpus query, a URL'),
  note: z.string().max(2000).optional().describe('What the ground shows'),
  score: z.number().min(0).max(1).optional().describe('For similarity grounds: the similarity score'),
});

export const DriftRequest = z.object({
  objectId: z.string().max(200).optional().describe('Required: the concept, claim, passage... whose meaning drifts'),
  layer: DriftLayer.optional().describe('Required: lexical, conceptual, interpretive or practical'),
  driftKind: DriftKind.optional().describe('Required: one of the six kinds of drift'),
  grounds: z.array(Ground).max(20).optional().describe('Required: at least one usage, citation or commentary ground with a ref or note'),
  evidence: Evidence.optional(),
  domain: DriftDomain.optional().describe('cultural and philosophical items are marked for human review'),
  description: z.string().max(4000).optional(),
});

export const DriftSignalSchema = versioned({
  objectId: z.string(),
  objectKind: ObjectKind,
  layer: DriftLayer,
  driftKind: DriftKind,
  grounds: z.array(Ground),
  evidence: Evidence,
  domain: DriftDomain.nullable(),
  description: z.string().nullable(),
  accepted: z.boolean().describe('false for a duplicate of an accepted signal (same objectId, layer and driftKind)'),
  filter: z.object({ reason: z.literal('duplicate'), message: z.string(), duplicateOf: z.string() }).nullable(),
  requiresHumanReview: z.boolean(),
  reviewReasons: z.array(z.string()),
  status: DriftSignalStatus,
  issueCandidateId: z.string().nullable(),
});
export type DriftSignal = Omit<z.infer<typeof DriftSignalSchema>, keyof typeof versionMeta>;

export const DriftResponse = z.object({ signal: DriftSignalSchema, accepted: z.boolean() });
export const DriftQuery = z.object({
  status: DriftSignalStatus.optional(),
  layer: DriftLayer.optional(),
  objectId: z.string().max(200).optional(),
});
export const DriftListResponse = z.object({ total: z.number().int(), signals: z.array(DriftSignalSchema) });
export const DriftHandoffResponse = z.object({ signal: DriftSignalSchema, issueCandidate: IssueCandidateSchema, note: HandoffNote });

/* Graph evolution */

export const GraphNodeType = z.enum(['concept', 'passage', 'claim', 'source', 'situation']);
export const ExpansionKind = z.enum(['new_node', 'hidden_relation', 'missing_link']);
export const GraphProposalKind = z.enum(['correction', 'expansion']);
export const GraphProposalStatus = z.enum(['proposed', 'handed_off']);

export const GraphNodeRequest = z.object({
  label: z.string().trim().min(1).max(200),
  nodeType: GraphNodeType,
  rationale: z.string().trim().min(1).max(4000).describe('Why the node should exist'),
  tradition: z.string().max(50).optional(),
  evidence: Evidence.optional(),
});

export const GraphNodeRecordSchema = versioned({
  label: z.string(),
  nodeType: GraphNodeType,
  rationale: z.string(),
  tradition: z.string().nullable(),
  evidence: Evidence,
  status: z.literal('unverified').describe('Creation is not truth: a created node stays unverified'),
  inServedGraph: z.literal(false).describe('The node is not part of the served graph'),
  sameLabelAs: z.array(z.string()).describe('Served graph nodes whose normalised label equals this one'),
});
export type GraphNodeRecord = Omit<z.infer<typeof GraphNodeRecordSchema>, keyof typeof versionMeta>;

export const GraphCorrectionRequest = z.object({
  targetId: z.string().max(200).optional().describe('The node (served or unverified) the correction is about'),
  description: z.string().trim().min(1).max(4000),
  proposedChange: z.looseObject({}).optional().describe('The change proposed, e.g. {field, from, to}'),
  evidence: Evidence.optional(),
});
export const GraphExpansionRequest = z.object({
  expansionKind: ExpansionKind.describe('new_node, hidden_relation (an unseen link between existing nodes) or missing_link (an expected link that is absent)'),
  targetId: z.string().max(200).optional(),
  sourceId: z.string().max(200).optional(),
  relationType: z.string().max(50).optional(),
  label: z.string().max(200).optional().describe('For new_node: the proposed label'),
  description: z.string().trim().min(1).max(4000),
  evidence: Evidence.optional(),
});

export const GraphProposalSchema = versioned({
  proposalKind: GraphProposalKind,
  expansionKind: ExpansionKind.nullable(),
  targetId: z.string().nullable(),
  sourceId: z.string().nullable(),
  relationType: z.string().nullable(),
  label: z.string().nullable(),
  description: z.string(),
  proposedChange: z.record(z.string(), z.unknown()).nullable(),
  evidence: Evidence,
  unknownIds: z.array(z.string()).describe('Referenced ids that are neither served graph nodes nor created nodes'),
  formalGraphChanged: z.literal(false).describe('A proposal never changes the formal graph'),
  status: GraphProposalStatus,
  issueCandidateId: z.string().nullable(),
});
export type GraphProposal = Omit<z.infer<typeof GraphProposalSchema>, keyof typeof versionMeta>;

export const GraphNodeResponse = z.object({ node: GraphNodeRecordSchema });
export const GraphProposalResponse = z.object({ proposal: GraphProposalSchema });
export const GraphProposalsQuery = z.object({ status: GraphProposalStatus.optional(), proposalKind: GraphProposalKind.optional() });
export const GraphProposalsResponse = z.object({ total: z.number().int(), proposals: z.array(GraphProposalSchema) });
export const GraphHandoffResponse = z.object({ proposal: GraphProposalSchema, issueCandidate: IssueCandidateSchema, note: HandoffNote });

export type EvidenceList = z.infer<typeof Evidence>;
