import type { FastifyInstance } from 'fastify';
import { requireAtlasAdmin } from '../platform/auth.js';
import { contractStub, type ContractRoute } from '../platform/routes.js';
import * as S from './schemas.js';

const V1 = '/api/atlas/v1';

export const ATLAS_ROUTES: ContractRoute[] = [
  { method: 'GET', url: `${V1}/stats`, summary: 'Pack statistics, version and manifest', tags: ['atlas'] },
  { method: 'GET', url: `${V1}/lookup`, summary: 'Exact lookup by id or slug', tags: ['atlas'], querystring: S.AtlasLookupQuery, errors: [404] },
  { method: 'POST', url: `${V1}/search`, summary: 'Full-text search', tags: ['atlas'], body: S.AtlasSearchRequest },
  { method: 'POST', url: `${V1}/graph`, summary: 'Neighbourhood graph from a root entity', tags: ['atlas'], body: S.AtlasGraphRequest, errors: [404] },
];

export const ATLAS_ADMIN_ROUTES: ContractRoute[] = [
  { method: 'POST', url: `${V1}/admin/reload`, summary: 'Hot reload of the pack (admin key)', tags: ['atlas-admin'], body: S.AtlasReloadRequest, errors: [403, 409, 422] },
  { method: 'GET', url: `${V1}/admin/usage`, summary: 'Usage per key and endpoint per day (admin key)', tags: ['atlas-admin'], querystring: S.AtlasUsageQuery, errors: [403] },
  { method: 'GET', url: `${V1}/admin/billing`, summary: 'Monthly bill per key (admin key)', tags: ['atlas-admin'], querystring: S.AtlasBillingQuery, errors: [403] },
];

export async function atlasRoutes(app: FastifyInstance) {
  for (const route of ATLAS_ROUTES) contractStub(app, 'atlas', route);
  await app.register(async (admin) => {
    admin.addHook('onRequest', requireAtlasAdmin);
    for (const route of ATLAS_ADMIN_ROUTES) contractStub(admin, 'atlas', route);
  });
}
