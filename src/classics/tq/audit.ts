import { createHash } from 'node:crypto';
import type { LedgerRow, LedgerStore } from '../../platform/ledger.js';
import type { TrustedAnswer, TrustedQueryTrace } from './pipeline.js';

export const AUDIT_KIND = 'trusted-query';

/**
 * Audit step: one ledger row per query. The question itself is kept only as a hash; the row says
 * what the Gate decided and which evidence and claims the answer rests on. Rows are queued and
 * written a few milliseconds later in one transaction, so the request never waits on a flush.
 */
export function recordAudit(ledger: LedgerStore, input: { query: string; expressionMode: string; releaseId: string; actor: string }, answer: TrustedAnswer, trace: TrustedQueryTrace) {
  ledger.enqueue({
    kind: AUDIT_KIND,
    recordId: answer.query_id,
    actor: input.actor,
    body: {
      query_id: answer.query_id,
      release_id: input.releaseId,
      gate: { allowed: trace.gate.allowed, category: trace.gate.category, ruleId: trace.gate.ruleId },
      evidence_ids: trace.evidenceIds,
      claim_ids: trace.claimIds,
      dropped_claim_ids: trace.droppedClaimIds,
      trust: answer.trust,
      abstention_reason: answer.abstention?.reason ?? null,
      expression_mode: input.expressionMode,
      query_sha256: createHash('sha256').update(input.query).digest('hex'),
      timings_ms: trace.timingsMs,
    },
  });
}

export function auditEvents(ledger: LedgerStore, limit: number, before?: number) {
  const rows = ledger.list(AUDIT_KIND, { limit, beforeSeq: before, newestFirst: true });
  return rows.map((row: LedgerRow) => ({ seq: row.seq, ...(row.body as object), actor: row.actor, created_at: row.createdAt, hash: row.hash }));
}
