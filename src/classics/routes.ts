import type { FastifyInstance } from 'fastify';
import { contractStub, type ContractRoute } from '../platform/routes.js';
import * as S from './schemas.js';

const V1 = '/api/classics/v1';

/** Core, graph (v2), workbench (v3) and personal-graph endpoints of the classics contract. */
export const CLASSICS_ROUTES: ContractRoute[] = [
  { method: 'POST', url: `${V1}/trusted-query`, summary: 'Evidence-bound answer with claims, citations and trust, or an explicit abstention', tags: ['trusted-query'], body: S.TrustedQueryRequest },
  { method: 'GET', url: `${V1}/trusted-query/audit`, summary: 'Append-only audit chain of trusted queries, newest first', tags: ['trusted-query'], querystring: S.AuditQuery },
  { method: 'GET', url: `${V1}/trusted-query/sources`, summary: 'Source registry grouped by source_grade', tags: ['trusted-query'] },
  { method: 'POST', url: `${V1}/illuminate`, summary: 'Four-tradition illumination of a question', tags: ['illumination'], body: S.IlluminateRequest },
  { method: 'POST', url: `${V1}/insights`, summary: 'Structured insights and actions for a situation', tags: ['insights'], body: S.InsightRequest },
  { method: 'POST', url: `${V1}/runtime`, summary: 'Unified runtime (lookup, explore, compare, source, path, report_support)', tags: ['runtime'], body: S.RuntimeRequest, errors: [404] },
  { method: 'GET', url: `${V1}/runtime/adapters`, summary: 'Product adapter fixtures', tags: ['runtime'] },
  { method: 'POST', url: `${V1}/runtime/adapters/:adapterId/execute`, summary: "Run a product's own request through its adapter", tags: ['runtime'], params: S.AdapterParams, body: S.OpenObject, errors: [404] },
  { method: 'GET', url: `${V1}/runtime/observations`, summary: 'In-process runtime telemetry', tags: ['runtime'], querystring: S.ObservationsQuery },
  { method: 'GET', url: `${V1}/packs`, summary: 'Pack registry', tags: ['packs'] },
  { method: 'GET', url: `${V1}/releases/:id`, summary: 'A release manifest', tags: ['packs'], params: S.IdParams, errors: [404] },
  { method: 'POST', url: `${V1}/feedback`, summary: 'Feedback; enters the issue flow, never changes knowledge', tags: ['feedback'], body: S.FeedbackRequest },
  { method: 'POST', url: `${V1}/orchestrate`, summary: 'Intent, route, plan, select, assemble, trace and explanation', tags: ['orchestration'], body: S.OrchestrateRequest },
  { method: 'GET', url: '/api/classics/v2/graph/nodes/:id', summary: 'A graph node', tags: ['graph'], params: S.IdParams, querystring: S.ReleaseQuery, errors: [404] },
  { method: 'GET', url: '/api/classics/v2/graph/nodes/:id/neighbors', summary: 'Neighbours of a graph node (depth 1-3)', tags: ['graph'], params: S.IdParams, querystring: S.NeighborsQuery, errors: [404] },
  { method: 'POST', url: '/api/classics/v2/graph/subgraph', summary: 'Subgraph around seed nodes', tags: ['graph'], body: S.SubgraphRequest, errors: [404] },
  { method: 'GET', url: '/api/classics/v3/workbench/candidates', summary: 'Workbench candidates (dimensions and patches)', tags: ['workbench'], querystring: S.WorkbenchCandidatesQuery },
  { method: 'POST', url: '/api/classics/v3/workbench/candidates/batch-review', summary: 'Review or withdraw draft candidates in a batch', tags: ['workbench'], body: S.BatchReviewRequest },
  { method: 'POST', url: '/api/classics/v3/workbench/objects/:id/withdraw', summary: 'Withdraw a workbench object', tags: ['workbench'], params: S.IdParams, errors: [404] },
  { method: 'POST', url: '/api/classics/v3/workbench/releases/:id/withdraw', summary: 'Withdraw a candidate release', tags: ['workbench'], params: S.IdParams, errors: [404] },
  { method: 'POST', url: '/api/classics/v3/workbench/releases/:id/supersede', summary: 'Supersede a release with a replacement', tags: ['workbench'], params: S.IdParams, body: S.SupersedeRequest, errors: [404] },
  { method: 'POST', url: '/api/personal-graph/v1/references', summary: "Save a reference in the caller's personal graph", tags: ['personal-graph'], body: S.ReferenceRequest },
  { method: 'GET', url: '/api/personal-graph/v1/references', summary: "The caller's personal references", tags: ['personal-graph'], querystring: S.ReferencesQuery },
];

export async function classicsRoutes(app: FastifyInstance) {
  for (const route of CLASSICS_ROUTES) contractStub(app, 'classics', route);
}
