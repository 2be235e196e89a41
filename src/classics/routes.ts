import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ServiceError } from '../platform/errors.js';
import { errorResponses } from '../platform/openapi.js';
import { contractStub, type ContractRoute } from '../platform/routes.js';
import { packRegistry, releaseById, requireServedRelease, sourceRegistry } from './catalog.js';
import { nodeData } from './graph-data.js';
import type { IssueCandidates } from '../governance/issue-candidates.js';
import type { LedgerStore } from '../platform/ledger.js';
import { illuminationRoutes } from './illumination/routes.js';
import { runtimeRoutes } from './runtime/routes.js';
import type { Library } from './library.js';
import * as S from './schemas.js';
import { auditEvents, recordAudit } from './tq/audit.js';
import { answerTrustedQuery } from './tq/pipeline.js';

const V1 = '/api/classics/v1';

/** Core, graph (v2), workbench (v3) and personal-graph endpoints of the classics contract. */
export const CLASSICS_ROUTES: ContractRoute[] = [
];

const errors = (...extra: number[]) => errorResponses('classics', [400, 401, 429, 500, ...extra]);

export async function classicsRoutes(app: FastifyInstance, opts: { lib: Library; ledger: LedgerStore; issues: IssueCandidates }) {
  const { lib, ledger } = opts;
  await app.register(illuminationRoutes, opts);
  await app.register(runtimeRoutes, opts);
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const route of CLASSICS_ROUTES) contractStub(app, 'classics', route);

  r.post(
    `${V1}/trusted-query`,
    {
      schema: {
        summary: 'Evidence-bound answer with claims, citations and trust, or an explicit abstention',
        description:
          'Runs Intent, Retrieve, Evidence, Claim, Binding, Trust, Conflict, Filter, Expression, Citation Validate, Answer and Audit. ' +
          'Gate-blocked, out-of-scope, unsupported and significantly contested questions get 200 with a non-null `abstention` ' +
          '(reason GATE_BLOCKED with the Gate category, OUT_OF_SCOPE, NO_EVIDENCE or SIGNIFICANT_CONFLICT). knowledge_scope: `kb` (all packs), pack ids or tradition names; an unknown scope is 400.',
        tags: ['trusted-query'],
        body: S.TrustedQueryRequest,
        response: { 200: S.TrustedAnswerSchema, ...errors() },
      },
    },
    async (request) => {
      const { answer, trace } = answerTrustedQuery(request.body, lib);
      recordAudit(
        ledger,
        { query: request.body.query, expressionMode: request.body.expression_mode, releaseId: lib.releaseId, actor: `key:${request.principal?.keyId ?? 'unknown'}` },
        answer,
        trace,
      );
      return answer;
    },
  );
  r.get(
    `${V1}/trusted-query/audit`,
    {
      schema: {
        summary: 'Append-only audit chain of trusted queries, newest first (page with `before` = the last seq seen)',
        tags: ['trusted-query'],
        querystring: S.AuditQuery,
        response: { 200: S.AuditResponse, ...errors() },
      },
    },
    async (request) => {
      const events = auditEvents(ledger, request.query.limit, request.query.before);
      return { protocol: 'KB-TKP-1.0' as const, events: events as never, count: events.length };
    },
  );
  r.get(
    `${V1}/trusted-query/audit/verify`,
    {
      schema: {
        summary: 'Walk the whole ledger hash chain and report whether it is intact (extra endpoint, not in the 1.1.0 table)',
        tags: ['trusted-query'],
        response: { 200: S.VerifyResponse, ...errors() },
      },
    },
    async () => ledger.verify(),
  );

  r.get(`${V1}/packs`, { schema: { summary: 'Pack registry of the served release', tags: ['packs'], response: { 200: S.PacksResponse, ...errors() } } }, async () =>
    packRegistry(lib),
  );
  r.get(
    `${V1}/releases/:id`,
    { schema: { summary: 'A release manifest: pack versions and checksums', tags: ['packs'], params: S.IdParams, response: { 200: S.ReleaseResponse, ...errors(404) } } },
    async (request) => releaseById(lib, ledger, request.params.id),
  );
  r.get(
    `${V1}/trusted-query/sources`,
    { schema: { summary: 'Source registry grouped by source_grade', tags: ['trusted-query'], response: { 200: S.SourcesResponse, ...errors() } } },
    async () => sourceRegistry(lib),
  );

  const node = (id: string) => {
    const found = lib.graph.nodes.get(id);
    if (!found) throw new ServiceError(404, 'NOT_FOUND', `no graph node ${id}`);
    return found;
  };
  r.get(
    '/api/classics/v2/graph/nodes/:id',
    { schema: { summary: 'A graph node with its data', tags: ['graph'], params: S.IdParams, querystring: S.ReleaseQuery, response: { 200: S.GraphNodeResponse, ...errors(404) } } },
    async (request) => {
      const releaseId = requireServedRelease(lib, request.query.releaseId);
      const found = node(request.params.id);
      return { releaseId, node: found, degree: lib.graph.degree(found.id), data: nodeData(lib.knowledge, found) };
    },
  );
  r.get(
    '/api/classics/v2/graph/nodes/:id/neighbors',
    {
      schema: {
        summary: 'Neighbours of a graph node (depth 1-3, 400 beyond)',
        tags: ['graph'],
        params: S.IdParams,
        querystring: S.NeighborsQuery,
        response: { 200: S.NeighborsResponse, ...errors(404) },
      },
    },
    async (request) => {
      const releaseId = requireServedRelease(lib, request.query.releaseId);
      const root = node(request.params.id);
      const { nodes, edges } = lib.graph.walk([root.id], request.query.depth);
      return { releaseId, root: root.id, depth: request.query.depth, nodes, edges };
    },
  );
  r.post(
    '/api/classics/v2/graph/subgraph',
    { schema: { summary: 'Subgraph around seed nodes, with a node limit', tags: ['graph'], body: S.SubgraphRequest, response: { 200: S.SubgraphResponse, ...errors(404) } } },
    async (request) => {
      const { seedIds, depth, relationTypes, nodeLimit, releaseId } = request.body;
      const served = requireServedRelease(lib, releaseId);
      for (const id of seedIds) node(id);
      const result = lib.graph.walk(seedIds, depth, { relationTypes, nodeLimit });
      return { releaseId: served, seedIds, depth, ...result };
    },
  );
}
