import type { FastifyInstance } from 'fastify';
import type { IssueCandidates } from '../../governance/issue-candidates.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { contractStub, type ContractRoute } from '../../platform/routes.js';
import type { Library } from '../library.js';
import * as S from '../schemas.js';

const V1 = '/api/classics/v1';

/** Runtime, adapters, observations, feedback, orchestration, workbench (v3) and personal graph: not built yet. */
export const STUBS: ContractRoute[] = [
  { method: 'POST', url: `${V1}/runtime`, summary: 'Unified runtime (lookup, explore, compare, source, path, report_support)', tags: ['runtime'], body: S.RuntimeRequest, errors: [404] },
  { method: 'GET', url: `${V1}/runtime/adapters`, summary: 'Product adapter fixtures', tags: ['runtime'] },
  { method: 'POST', url: `${V1}/runtime/adapters/:adapterId/execute`, summary: "Run a product's own request through its adapter", tags: ['runtime'], params: S.AdapterParams, body: S.OpenObject, errors: [404] },
  { method: 'GET', url: `${V1}/runtime/observations`, summary: 'In-process runtime telemetry', tags: ['runtime'], querystring: S.ObservationsQuery },
  { method: 'POST', url: `${V1}/feedback`, summary: 'Feedback; enters the issue flow, never changes knowledge', tags: ['feedback'], body: S.FeedbackRequest },
  { method: 'POST', url: `${V1}/orchestrate`, summary: 'Intent, route, plan, select, assemble, trace and explanation', tags: ['orchestration'], body: S.OrchestrateRequest },
  { method: 'GET', url: '/api/classics/v3/workbench/candidates', summary: 'Workbench candidates (dimensions and patches)', tags: ['workbench'], querystring: S.WorkbenchCandidatesQuery },
  { method: 'POST', url: '/api/classics/v3/workbench/candidates/batch-review', summary: 'Review or withdraw draft candidates in a batch', tags: ['workbench'], body: S.BatchReviewRequest },
  { method: 'POST', url: '/api/classics/v3/workbench/objects/:id/withdraw', summary: 'Withdraw a workbench object', tags: ['workbench'], params: S.IdParams, errors: [404] },
  { method: 'POST', url: '/api/classics/v3/workbench/releases/:id/withdraw', summary: 'Withdraw a candidate release', tags: ['workbench'], params: S.IdParams, errors: [404] },
  { method: 'POST', url: '/api/classics/v3/workbench/releases/:id/supersede', summary: 'Supersede a release with a replacement', tags: ['workbench'], params: S.IdParams, body: S.SupersedeRequest, errors: [404] },
  { method: 'POST', url: '/api/personal-graph/v1/references', summary: "Save a reference in the caller's personal graph", tags: ['personal-graph'], body: S.ReferenceRequest },
  { method: 'GET', url: '/api/personal-graph/v1/references', summary: "The caller's personal references", tags: ['personal-graph'], querystring: S.ReferencesQuery },
];

export async function runtimeRoutes(app: FastifyInstance, opts: { lib: Library; ledger: LedgerStore; issues: IssueCandidates }) {
  void opts;
  for (const route of STUBS) contractStub(app, 'classics', route);
}
