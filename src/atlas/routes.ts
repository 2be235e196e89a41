import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { BillingPlan } from '../config.js';
import { requireAtlasAdmin } from '../platform/auth.js';
import { ServiceError } from '../platform/errors.js';
import { AtlasErrorSchema, errorResponses } from '../platform/openapi.js';
import { sendSerialized, serializedOnce } from '../platform/serialized.js';
import { computeBill } from './billing.js';
import * as S from './schemas.js';
import { PackInvalidError, PackNotFoundError, ReloadInProgressError, type Atlas, type AtlasStore } from './store.js';
import { monthRange, usageRange, utcMonth, type UsageMeter } from './usage.js';

export const V1 = '/api/atlas/v1';

export interface AtlasRouteOptions {
  store: AtlasStore;
  usage: UsageMeter;
  billingPlan: BillingPlan;
}

const atlasError = (description: string) => AtlasErrorSchema.describe(description);
const NOT_READY = { 503: atlasError('NOT_READY: no pack is loaded (see /ready for the reason)') };
const errors = (statuses: number[], extra: Record<number, z.ZodType> = {}) => ({ ...errorResponses('atlas', [400, 401, 429, 500, ...statuses]), ...extra });

/** The pack a request works on: read once, so the whole request sees one pack even across a reload. */
function served(store: AtlasStore): Atlas {
  const atlas = store.current;
  if (!atlas) throw new ServiceError(503, 'NOT_READY', `no atlas pack is loaded: ${store.readiness().reason ?? 'unknown reason'}`);
  return atlas;
}

export async function atlasRoutes(app: FastifyInstance, opts: AtlasRouteOptions) {
  const { store, usage, billingPlan } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const searchHits = serializedOnce(S.AtlasSearchResponse.shape.hits, 'POST', `${V1}/search`);

  r.get(
    `${V1}/stats`,
    { schema: { summary: 'Pack statistics, version and manifest', tags: ['atlas'], response: { 200: S.AtlasStatsResponse, ...errors([], NOT_READY) } } },
    async () => {
      const { pack } = served(store);
      const { packName: _name, ...version } = pack.version;
      return { version, manifest: pack.manifest };
    },
  );

  r.get(
    `${V1}/lookup`,
    {
      schema: {
        summary: 'Exact lookup by id or slug',
        description: 'Exactly one of `id` (an entity, relationship or evidence id) or `slug` (an entity slug). Unknown or unreleased: 404 NOT_FOUND.',
        tags: ['atlas'],
        querystring: S.AtlasLookupQuery,
        response: { 200: S.AtlasLookupResult, ...errors([404], NOT_READY) },
      },
    },
    async (request) => {
      const { pack } = served(store);
      const { id, slug } = request.query;
      if (slug !== undefined) {
        const entity = pack.entitiesBySlug.get(slug);
        if (!entity) throw new ServiceError(404, 'NOT_FOUND', `no entity with slug "${slug}"`);
        return { kind: 'entity' as const, id: entity.id, data: entity };
      }
      const key = id!;
      const entity = pack.entities.get(key);
      if (entity) return { kind: 'entity' as const, id: key, data: entity };
      const relationship = pack.relationships.get(key);
      if (relationship) return { kind: 'relationship' as const, id: key, data: relationship };
      const evidence = pack.evidence.get(key);
      if (evidence) return { kind: 'evidence' as const, id: key, data: evidence };
      throw new ServiceError(404, 'NOT_FOUND', `no entity, relationship or evidence with id "${key}"`);
    },
  );

  r.post(
    `${V1}/search`,
    { schema: { summary: 'Full-text search', tags: ['atlas'], body: S.AtlasSearchRequest, response: { 200: S.AtlasSearchResponse, ...errors([], NOT_READY) } } },
    async (request, reply) => {
      const hits = served(store).search.search(request.body);
      // The response the schema describes, field for field: `q` is the request's (a checked
      // string), `count` the number of hits, the hits serialised once per cached result.
      return sendSerialized(reply, `{"q":${JSON.stringify(request.body.q)},"count":${hits.length},"hits":${searchHits(hits)}}`);
    },
  );

  r.post(
    `${V1}/graph`,
    {
      schema: {
        summary: 'Neighbourhood graph from a root entity',
        tags: ['atlas'],
        body: S.AtlasGraphRequest,
        response: { 200: S.AtlasGraphResponse, ...errors([404], NOT_READY) },
      },
    },
    async (request) => {
      const graph = served(store).graph.walk(request.body);
      if (!graph) throw new ServiceError(404, 'NOT_FOUND', `no entity with id "${request.body.rootId}"`);
      return graph;
    },
  );

  await app.register(async (admin) => {
    admin.addHook('onRequest', requireAtlasAdmin);
    const a = admin.withTypeProvider<ZodTypeProvider>();

    a.post(
      `${V1}/admin/reload`,
      {
        schema: {
          summary: 'Hot reload of the pack (admin key)',
          description:
            'Reads and validates PACKS_DIR/atlas/<packId> (default: the pack being served), builds new indexes off the request path and swaps them in atomically. ' +
            'Requests in flight finish on the old pack. A pack that fails validation is refused with 422 PACK_INVALID (`error.details` lists the problems) and the old pack keeps serving.',
          tags: ['atlas-admin'],
          body: S.AtlasReloadRequest,
          response: {
            200: S.AtlasReloadResponse,
            ...errors([403]),
            404: atlasError('NOT_FOUND: no pack directory with that id'),
            409: atlasError('CONFLICT: another reload is running'),
            422: atlasError('PACK_INVALID: the pack failed validation; error.details is the list of problems. The old pack keeps serving.'),
          },
        },
      },
      async (request) => {
        try {
          const { previous, current, durationMs, opened } = await store.reload(request.body.packId);
          request.log.info({ pack: current, durationMs, opened }, 'atlas pack reloaded');
          return { previous, current, durationMs };
        } catch (error) {
          if (error instanceof ReloadInProgressError) throw new ServiceError(409, 'CONFLICT', error.message);
          if (error instanceof PackNotFoundError) throw new ServiceError(404, 'NOT_FOUND', error.message);
          if (error instanceof PackInvalidError) {
            const serving = store.current ? `pack "${store.current.pack.version.packId}" ${store.current.pack.version.version} keeps serving` : 'no pack is being served';
            throw new ServiceError(422, 'PACK_INVALID', `${error.message}; ${serving}`, error.errors);
          }
          throw error;
        }
      },
    );

    a.get(
      `${V1}/admin/usage`,
      {
        schema: {
          summary: 'Usage per key and endpoint per day (admin key)',
          description: 'Requests per UTC day, key id and endpoint, between `from` and `to` inclusive (default the current month). Buffered counts are written first, so the report is current.',
          tags: ['atlas-admin'],
          querystring: S.AtlasUsageQuery,
          response: { 200: S.AtlasUsageResponse, ...errors([403]) },
        },
      },
      async (request) => {
        const { from, to } = usageRange(request.query.from, request.query.to, new Date());
        return usage.report(from, to);
      },
    );

    a.get(
      `${V1}/admin/billing`,
      {
        schema: {
          summary: 'Monthly bill per key (admin key)',
          description:
            'Prices one UTC calendar month of usage with the configured plan: per key, one line per price class (search, graph, lookup, stats, admin). ' +
            'Each key has freeRequestsPerMonth free requests, applied to its most expensive class first. Amounts are rounded to cents per line.',
          tags: ['atlas-admin'],
          querystring: S.AtlasBillingQuery,
          response: { 200: S.AtlasBillingResponse, ...errors([403]) },
        },
      },
      async (request) => {
        const month = request.query.month ?? utcMonth(new Date());
        const { from, to } = monthRange(month);
        return computeBill(usage.report(from, to).rows, billingPlan, month);
      },
    );
  });
}
