import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireBearer } from '../platform/auth.js';
import type { PlatformContext } from '../platform/context.js';
import { ServiceError } from '../platform/errors.js';
import { errorResponses, registerContract } from '../platform/openapi.js';
import { limitPerKey } from '../platform/rate-limit.js';
import { atlasRoutes } from './routes.js';
import { AtlasReadyResponse } from './schemas.js';

export const ATLAS_CONTRACT_VERSION = '1.0.0';

/** The design-graph service: /api/atlas/v1 and the /openapi.json alias. */
export async function atlasPlugin(app: FastifyInstance, opts: { ctx: PlatformContext }) {
  const { ctx } = opts;
  await registerContract(
    app,
    {
      title: 'Design Atlas',
      version: ATLAS_CONTRACT_VERSION,
      description:
        'Read access to a released knowledge pack about design: exact lookup, full-text search, neighbourhood graphs, ' +
        'stats, and admin operations (hot reload, usage, monthly billing). Protected routes need `Authorization: Bearer <API_KEY>`; ' +
        'admin routes need an admin key.',
    },
    [
      { name: 'atlas', description: 'Read endpoints' },
      { name: 'atlas-admin', description: 'Admin endpoints (admin key)' },
    ],
  );

  await app.register(async (pub) => {
    const typed = pub.withTypeProvider<ZodTypeProvider>();
    typed.get(
      '/api/atlas/v1/ready',
      {
        schema: {
          summary: 'Readiness and pack version',
          tags: ['atlas'],
          security: [],
          response: { 200: AtlasReadyResponse, ...errorResponses('atlas', [503]) },
        },
      },
      async () => {
        const result = ctx.readiness.evaluate('atlas');
        if (!result.ready) throw new ServiceError(503, 'NOT_READY', result.reasons.join('; '));
        return { ok: true as const, service: 'atlas', version: ATLAS_CONTRACT_VERSION };
      },
    );
    for (const url of ['/api/atlas/v1/openapi.json', '/openapi.json']) {
      typed.get(url, { schema: { summary: 'This OpenAPI 3.1 contract', tags: ['atlas'], security: [] } }, async () => app.swagger());
    }
  });

  await app.register(async (prot) => {
    await requireBearer(prot, 'atlas', ctx.auth);
    await limitPerKey(prot, ctx.config.rateLimitPerMinute);
    await prot.register(atlasRoutes);
  });
}
