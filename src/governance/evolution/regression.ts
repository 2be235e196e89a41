import type { Library } from '../../classics/library.js';
import type { Release } from '../../classics/model.js';
import { requireActor } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';

/**
 * Regression results of a release's critical items. One record per (release, item); each run
 * appends a version, so the record's current state is the latest result and its history every run.
 */

export type RegressionOutcome = 'PASS' | 'FAIL' | 'FLAKY' | 'NOT_RUN';

export interface RegressionResult {
  releaseId: string;
  item: string;
  result: RegressionOutcome;
  detail: string;
  recordedBy: string;
}

/** The service's own runs are recorded under this actor. */
export const SERVICE_ACTOR = 'system:classics-service';

export class RegressionResults {
  readonly records: Records<RegressionResult>;

  constructor(ledger: LedgerStore) {
    this.records = new Records<RegressionResult>(ledger, KIND.regressionResult, 'rr');
  }

  static recordId = (releaseId: string, item: string) => `${releaseId}/${item}`;

  record(result: RegressionResult): Versioned<RegressionResult> {
    return this.records.create(result, result.recordedBy, RegressionResults.recordId(result.releaseId, result.item));
  }

  latest(releaseId: string, item: string): Versioned<RegressionResult> | undefined {
    return this.records.get(RegressionResults.recordId(releaseId, item));
  }
}

/**
 * What the service can check about itself at start, for the release it serves: the Gate self-test
 * over every shipped fixture, and citation validation (the loader checks every claim's quote is
 * verbatim in its passage, with every other cross-reference; any load error fails it).
 */
export function serviceRuns(lib: Pick<Library, 'gateSelfTest' | 'errors'>): { item: string; result: RegressionOutcome; detail: string }[] {
  const gate = lib.gateSelfTest;
  return [
    {
      item: 'gate-self-test',
      result: gate.passed ? 'PASS' : 'FAIL',
      detail: gate.passed
        ? `${gate.total} of ${gate.total} Gate fixtures got their expected verdict`
        : `${gate.failures.length} of ${gate.total} Gate fixtures got the wrong verdict${gate.failures[0] ? `, e.g. ${gate.failures[0].id}` : ''}`,
    },
    {
      item: 'citation-validation',
      result: lib.errors.length === 0 ? 'PASS' : 'FAIL',
      detail: lib.errors.length === 0 ? 'every claim quote is verbatim in its passage; no load error' : `${lib.errors.length} load problem(s), first: ${lib.errors[0]}`,
    },
  ];
}

/** Records the service's own runs for the served release; called once per start. */
export function recordServiceRuns(lib: Pick<Library, 'gateSelfTest' | 'errors' | 'knowledge'>, results: RegressionResults): Versioned<RegressionResult>[] {
  const release = lib.knowledge.currentRelease;
  if (!release) return [];
  return serviceRuns(lib).map((run) => results.record({ releaseId: release.id, ...run, recordedBy: SERVICE_ACTOR }));
}

/**
 * A result sent by CI (the extension endpoint). Human, editorial and system actors may record; an
 * ai actor, a missing or malformed X-Actor, an unknown release or an item the release does not
 * declare critical is refused with REGRESSION_RESULT_REJECTED.
 */
export function recordFromCi(
  lib: Pick<Library, 'knowledge'>,
  results: RegressionResults,
  input: { item: string; result: RegressionOutcome; detail: string; releaseId?: string },
  actorHeader: string | string[] | undefined,
): Versioned<RegressionResult> {
  const actor = requireActor(actorHeader, 'REGRESSION_RESULT_REJECTED');
  const refuse = (why: string) => new ServiceError(422, 'REGRESSION_RESULT_REJECTED', why);
  if (actor.kind === 'ai') throw refuse(`actor ${actor.ref} is ai: regression results come from a human or a system run`);
  const release = input.releaseId === undefined ? lib.knowledge.currentRelease : lib.knowledge.releaseById.get(input.releaseId);
  if (!release) throw refuse(input.releaseId === undefined ? 'no release is served' : `no release ${input.releaseId}`);
  if (!release.criticalItems.includes(input.item)) {
    throw refuse(`release ${release.id} does not declare ${input.item} critical (its items: ${release.criticalItems.join(', ') || 'none'})`);
  }
  return results.record({ releaseId: release.id, item: input.item, result: input.result, detail: input.detail, recordedBy: actor.ref });
}

export interface BlockedStatus {
  releaseId: string;
  blocked: boolean;
  reasons: string[];
  items: { item: string; latest: Versioned<RegressionResult> | null }[];
}

/** Blocked when a critical item has no result, or its latest result is NOT_RUN, FLAKY or FAIL. */
export function blockedStatus(release: Release, results: RegressionResults): BlockedStatus {
  const items = release.criticalItems.map((item) => ({ item, latest: results.latest(release.id, item) ?? null }));
  const reasons = items.flatMap(({ item, latest }) =>
    !latest ? [`${item}: no regression result`] : latest.result !== 'PASS' ? [`${item}: latest result is ${latest.result}${latest.detail ? ` (${latest.detail})` : ''}`] : [],
  );
  return { releaseId: release.id, blocked: reasons.length > 0, reasons, items };
}
