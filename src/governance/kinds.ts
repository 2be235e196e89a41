/**
 * Ledger record kinds of the governance, evolution and discovery records. One list, so that a
 * reader (metrics, replay, audit) and a writer always agree on the name.
 */
export const KIND = {
  issueCandidate: 'issue-candidate',
  evolutionCandidate: 'evolution-candidate',
  review: 'review-decision',
  approval: 'approval',
  regressionResult: 'regression-result',
  productPin: 'product-pin',
  snapshot: 'snapshot',
  changeSignal: 'change-signal',
  knowledgeState: 'knowledge-state',
  driftSignal: 'drift-signal',
  graphNode: 'graph-node',
  graphProposal: 'graph-proposal',
  knowledgeConflict: 'knowledge-conflict',
  agentRun: 'agent-run',
  agentProposal: 'agent-proposal',
  evolutionEvent: 'evolution-event',
  auditRecord: 'audit-record',
  personalEvent: 'personal-event',
  behaviorSignal: 'behavior-signal',
  discoverySource: 'discovery-source',
  discoveryCandidate: 'discovery-candidate',
  qualification: 'qualification',
  discoveryProposal: 'discovery-proposal',
  handoff: 'handoff',
  externalPack: 'external-pack',
  workbenchCandidate: 'workbench-candidate',
  workbenchObject: 'workbench-object',
  releaseState: 'release-state',
  reference: 'personal-reference',
  feedback: 'feedback',
} as const;

/** The machine review record a workbench batch-review writes (one per batch that changed anything). */
export const WORKBENCH_REVIEW_KIND = 'workbench-review' as const;
