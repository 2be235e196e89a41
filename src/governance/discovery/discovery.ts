import { join } from 'node:path';
import type { z } from 'zod';
import type { Library } from '../../classics/library.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { IssueCandidates } from '../issue-candidates.js';
import { verifyTool } from './agent-tools.js';
import { decider, observedActor, proposer, type Caller } from './callers.js';
import { DiscoveryCandidates } from './candidates.js';
import { Engines } from './engines.js';
import { ExternalPacks } from './external-packs.js';
import { Handoffs } from './handoff.js';
import { checkInjection } from './injection.js';
import { ObservationLog } from './observation.js';
import { callerSuppliedResults, searchOpenWeb, type WebSearchProvider } from './open-web.js';
import { productsMatrix } from './products.js';
import { Qualifications } from './qualifications.js';
import type * as S from './schemas.js';
import { Sources } from './sources.js';

export const OBSERVATION_FILE = 'discovery-observations.jsonl';

export interface DiscoveryDeps {
  ledger: LedgerStore;
  issues: IssueCandidates;
  lib: Library;
  dataDir: string;
  /** Where open-web results come from; by default the caller's own, with no outbound call. */
  webSearch?: WebSearchProvider;
}

type In<T extends z.ZodType> = z.infer<T>;
type Outcome = { records: string[]; flagged?: boolean };
const ids = (...records: ({ id: string } | undefined)[]) => records.filter((r): r is { id: string } => r !== undefined).map((r) => r.id);

/**
 * The discovery service: one method per contract operation, each run through `observe`, which
 * appends one line to the observation log (fsync'ed) before the method returns or rethrows.
 * Refused attempts (404 and 422) are observed with outcome `refused` and their code; they write
 * nothing to the ledger. Reading the observation summary is not itself observed.
 */
export class Discovery {
  readonly sources: Sources;
  readonly qualifications: Qualifications;
  readonly candidates: DiscoveryCandidates;
  readonly engines: Engines;
  readonly handoffs: Handoffs;
  readonly externalPacks: ExternalPacks;
  readonly observation: ObservationLog;
  private readonly webSearch: WebSearchProvider;

  constructor(private readonly deps: DiscoveryDeps) {
    this.sources = new Sources(deps.ledger);
    this.qualifications = new Qualifications(deps.ledger, this.sources);
    this.candidates = new DiscoveryCandidates(deps.ledger, this.sources);
    this.engines = new Engines(deps.ledger, deps.lib, this.candidates);
    this.handoffs = new Handoffs(deps.ledger, this.candidates, this.engines, deps.issues);
    this.externalPacks = new ExternalPacks(deps.ledger, deps.lib);
    this.observation = new ObservationLog(join(deps.dataDir, OBSERVATION_FILE));
    this.webSearch = deps.webSearch ?? callerSuppliedResults;
  }

  private observe<T>(operation: string, caller: Caller, status: number, run: () => T, describe: (result: T) => Outcome): T {
    let result: T;
    try {
      result = run();
    } catch (error) {
      this.refused(operation, caller, error);
      throw error;
    }
    this.observed(operation, caller, status, describe(result));
    return result;
  }

  private async observeAsync<T>(operation: string, caller: Caller, status: number, run: () => Promise<T>, describe: (result: T) => Outcome): Promise<T> {
    let result: T;
    try {
      result = await run();
    } catch (error) {
      this.refused(operation, caller, error);
      throw error;
    }
    this.observed(operation, caller, status, describe(result));
    return result;
  }

  private observed(operation: string, caller: Caller, status: number, outcome: Outcome) {
    const who = observedActor(caller);
    this.observation.append({ operation, outcome: 'ok', status, code: null, actor: who.ref, actorKind: who.kind, ...outcome });
  }

  /** A refusal (4xx from a rule) is observed; a failure (5xx) is not an operation and is only logged by the error handler. */
  private refused(operation: string, caller: Caller, error: unknown) {
    if (!(error instanceof ServiceError) || error.statusCode >= 500) return;
    const who = observedActor(caller);
    this.observation.append({ operation, outcome: 'refused', status: error.statusCode, code: error.code, actor: who.ref, actorKind: who.kind, records: [] });
  }

  listSources(query: In<typeof S.SourcesQuery>, caller: Caller) {
    return this.observe('sources.list', caller, 200, () => {
      const sources = this.sources.list(query);
      return { total: sources.length, sources };
    }, () => ({ records: [] }));
  }

  registerSource(input: In<typeof S.RegisterSourceRequest>, caller: Caller) {
    return this.observe('sources.register', caller, 201, () => this.sources.register(input, proposer(caller, 'DISCOVERY_SOURCE_REJECTED')), (s) => ({ records: ids(s) }));
  }

  signal(input: In<typeof S.SignalRequest>, caller: Caller) {
    return this.observe('signals.record', caller, 201, () => {
      const author = proposer(caller, 'DISCOVERY_SIGNAL_REJECTED');
      const injection = checkInjection([input.title ?? '', input.summary].join('\n'));
      return this.candidates.ingest([this.candidates.signalAddition(input, injection)], author)[0]!;
    }, (r) => ({ records: ids(r.candidate) }));
  }

  listCandidates(query: In<typeof S.CandidatesQuery>, caller: Caller) {
    return this.observe('candidates.list', caller, 200, () => {
      const candidates = this.candidates.list(query);
      return { total: candidates.length, candidates };
    }, () => ({ records: [] }));
  }

  transition(id: string, input: In<typeof S.TransitionRequest>, caller: Caller) {
    return this.observe('candidates.transition', caller, 200, () => ({ candidate: this.candidates.transition(id, input.to, caller.actorHeader, input.reason) }), (r) => ({ records: ids(r.candidate) }));
  }

  openQualification(input: In<typeof S.OpenQualificationRequest>, caller: Caller) {
    return this.observe('qualifications.open', caller, 201, () => ({ qualification: this.qualifications.open(input, proposer(caller, 'QUALIFICATION_REJECTED')) }), (r) => ({ records: ids(r.qualification) }));
  }

  verifyQualification(id: string, input: In<typeof S.VerifyRequest>, caller: Caller) {
    return this.observe('qualifications.verify', caller, 200, () => ({ qualification: this.qualifications.verify(id, decider(caller, 'VERIFY_DENIED'), input.note) }), (r) => ({ records: ids(r.qualification) }));
  }

  relation(input: In<typeof S.RelationRequest>, caller: Caller) {
    return this.observe('engine.relation', caller, 200, () => ({ proposal: this.engines.relation(input, proposer(caller, 'RELATION_PROPOSAL_REJECTED')) }), (r) => ({ records: ids(r.proposal) }));
  }

  conflict(input: In<typeof S.ConflictRequest>, caller: Caller) {
    return this.observe('engine.conflict', caller, 200, () => ({ proposal: this.engines.conflict(input, proposer(caller, 'INVALID_REQUEST', 400)) }), (r) => ({ records: ids(r.proposal) }));
  }

  gap(input: In<typeof S.GapRequest>, caller: Caller) {
    return this.observe('engine.gap', caller, 200, () => ({ proposal: this.engines.gap(input, proposer(caller, 'INVALID_REQUEST', 400)) }), (r) => ({ records: ids(r.proposal) }));
  }

  handoff(input: In<typeof S.HandoffRequest>, caller: Caller) {
    return this.observe('handoff.manual', caller, 201, () => ({ handoff: this.handoffs.handoff(input, proposer(caller, 'HANDOFF_DENIED')) }), (r) => ({ records: ids(r.handoff) }));
  }

  autoHandoff(input: In<typeof S.AutoHandoffRequest>, caller: Caller) {
    return this.observe('handoff.auto', caller, 201, () => this.handoffs.auto(input.discoveryCandidateRef, proposer(caller, 'AUTO_HANDOFF_DENIED')), (r) => ({ records: ids(r.candidate, r.issueCandidate, r.handoff) }));
  }

  injectionCheck(input: In<typeof S.InjectionCheckRequest>, caller: Caller) {
    return this.observe('trust.injection-check', caller, 200, () => ({ result: { ...checkInjection(input.text), context: input.context ?? null } }), (r) => ({ records: [], flagged: r.result.flagged }));
  }

  /** The one asynchronous operation: a configured provider may search the web. */
  openWeb(input: In<typeof S.OpenWebRequest>, caller: Caller) {
    return this.observeAsync(
      'open-web.search',
      caller,
      201,
      async () => ({ result: await searchOpenWeb(input, this.webSearch, this.candidates, proposer(caller, 'WEB_RESULT_REJECTED')) }),
      (r) => ({ records: r.result.candidates.map((c) => c.candidate.id) }),
    );
  }

  registerExternalPack(input: In<typeof S.ExternalPackRequest>, caller: Caller) {
    return this.observe('external-packs.register', caller, 201, () => ({ pack: this.externalPacks.register(input.manifest, proposer(caller, 'EXTERNAL_PACK_REJECTED')) }), (r) => ({ records: ids(r.pack) }));
  }

  verifyTool(input: In<typeof S.VerifyToolRequest>, caller: Caller) {
    return this.observe('agent.verify-tool', caller, 200, () => ({ decision: verifyTool(input.method, input.path) }), () => ({ records: [] }));
  }

  productsMatrix(caller: Caller) {
    return this.observe('products.matrix', caller, 200, () => productsMatrix(this.deps.lib.knowledge.products), () => ({ records: [] }));
  }

  observationSummary() {
    return { summary: this.observation.summary() };
  }

  close() {
    this.observation.close();
  }
}
