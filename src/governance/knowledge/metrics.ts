/**
 * Evolution metrics, computed from the ledger on every call (nothing is cached or stored). Each is
 * a ratio with its numerator, denominator and formula, so a reader can check it; a score is not
 * truth and none of these changes any knowledge.
 */
import type { Knowledge } from '../../classics/packs.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';

export const FRESHNESS_WINDOW_DAYS = 30;

const ratio = (numerator: number, denominator: number, formula: string) => ({
  value: denominator === 0 ? null : numerator / denominator,
  numerator,
  denominator,
  formula,
});

type Body = Record<string, unknown>;
const bodyOf = (row: { body: unknown }): Body => (row.body && typeof row.body === 'object' ? (row.body as Body) : {});

const TRUST_FIELD = /^(proposed_?|new_?)?trust_?level$/i;

/**
 * Whether a record changes a trust level: a key named like one anywhere (`{trust_level: "T3"}`),
 * or a value naming the field, as in an evolution candidate's `{field: "trust_level", from, to}`.
 */
function touchesTrust(value: unknown): boolean {
  if (typeof value === 'string') return TRUST_FIELD.test(value);
  if (Array.isArray(value)) return value.some(touchesTrust);
  if (!value || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, item]) => TRUST_FIELD.test(key) || touchesTrust(item));
}

export function computeMetrics(ledger: LedgerStore, knowledge: Knowledge, releaseId: string, now = new Date()) {
  // Freshness: age of the newest record of each governance kind that has any.
  const perKind = Object.values(KIND).flatMap((kind) => {
    const newest = ledger.list(kind, { limit: 1 })[0];
    if (!newest) return [];
    const ageSeconds = Math.max(0, (now.getTime() - Date.parse(newest.createdAt)) / 1000);
    return [{ kind, rows: ledger.count(kind), newestAt: newest.createdAt, ageSeconds }];
  });
  const fresh = perKind.filter((k) => k.ageSeconds <= FRESHNESS_WINDOW_DAYS * 86_400).length;

  // Acceptance: evolution candidates that an approval names.
  const approvals = ledger.current(KIND.approval).map(bodyOf);
  const approvedIds = new Set(approvals.flatMap((a) => [a.candidateId, a.targetId]).filter((x): x is string => typeof x === 'string'));
  const candidates = ledger.current(KIND.evolutionCandidate);
  const accepted = candidates.filter((c) => approvedIds.has(c.recordId)).length;

  // Conflict resolution: registered conflicts that reached `resolved`.
  const conflicts = ledger.current(KIND.knowledgeConflict).map(bodyOf);
  const resolved = conflicts.filter((c) => c.state === 'resolved');
  const byOutcome: Record<string, number> = {};
  for (const c of resolved) {
    const outcome = String((c.resolution as Body | null)?.outcome ?? 'unknown');
    byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
  }

  // Trust stability: claims of the served release whose trust level no approved candidate changed.
  const changed = new Set<string>();
  for (const approval of approvals) {
    const candidate = typeof approval.candidateId === 'string' ? ledger.latest(KIND.evolutionCandidate, approval.candidateId) : undefined;
    const proposed = candidate ? bodyOf(candidate) : {};
    if (!touchesTrust(proposed) && !touchesTrust(approval)) continue;
    for (const id of [approval.targetId, proposed.objectId, proposed.targetId, proposed.claimId]) {
      if (typeof id === 'string' && knowledge.claimById.has(id)) changed.add(id);
    }
  }
  const claims = knowledge.claims.length;

  // Event approval: decided evolution events that were approved.
  const events = ledger.current(KIND.evolutionEvent).map(bodyOf);
  const approvedEvents = events.filter((e) => e.queueState === 'approved').length;
  const decidedEvents = events.filter((e) => e.queueState === 'approved' || e.queueState === 'rejected').length;

  return {
    metrics: {
      freshness: {
        ...ratio(fresh, perKind.length, `kinds whose newest record is at most ${FRESHNESS_WINDOW_DAYS} days old / kinds with any record`),
        windowDays: FRESHNESS_WINDOW_DAYS,
        perKind,
      },
      acceptance: ratio(accepted, candidates.length, `evolution candidates named by an approval (candidateId or targetId) / evolution candidates`),
      conflictResolution: { ...ratio(resolved.length, conflicts.length, 'conflicts in state resolved / registered conflicts'), byOutcome },
      trustStability: {
        ...ratio(claims - changed.size, claims, `claims of release ${releaseId} whose trust level no approved candidate changed / claims of the release`),
        changedClaimIds: [...changed].sort(),
      },
      eventApproval: ratio(approvedEvents, decidedEvents, 'evolution events approved / evolution events approved or rejected'),
    },
    releaseId,
    computedAt: now.toISOString(),
    note: 'a score is not truth' as const,
  };
}
