import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireBearer } from '../platform/auth.js';
import type { PlatformContext } from '../platform/context.js';
import { ServiceError } from '../platform/errors.js';
import { errorResponses, registerContract } from '../platform/openapi.js';
import { limitPerKey } from '../platform/rate-limit.js';
import { atlasRoutes, V1 } from './routes.js';
import { AtlasReadyResponse } from './schemas.js';
import type { AtlasStore } from './store.js';
import type { UsageMeter } from './usage.js';

export const ATLAS_CONTRACT_VERSION = '1.0.0';
/** How often buffered usage counts are written to SQLite. */
export const USAGE_FLUSH_MS = 2_000;

/** The design-graph service: /api/atlas/v1 and the /openapi.json alias. */
export async function atlasPlugin(app: FastifyInstance, opts: { ctx: PlatformContext; store: AtlasStore; usage: UsageMeter }) {
  const { ctx, store, usage } = opts;
  ctx.readiness.add('atlas', { name: 'pack', check: () => store.readiness() });

  // Load the configured pack before the server takes traffic. A failure is not fatal: the rest of
  // the server starts, atlas /ready answers 503 with the reason, and an admin reload can fix it.
  // A pack too large to load within Fastify's plugin timeout keeps loading in the background
  // while the server starts; atlas /ready answers 503 until it is in.
  const loading = store.reload().then(
    (loaded) => app.log.info({ pack: loaded.current, durationMs: loaded.durationMs, opened: loaded.opened }, 'atlas pack loaded'),
    () => app.log.error({ reason: store.readiness().reason }, 'atlas pack not loaded'),
  );
  const pluginTimeout = app.initialConfig.pluginTimeout ?? 10_000;
  if (pluginTimeout > 0) {
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, pluginTimeout / 2, 'late')));
    if ((await Promise.race([loading, budget])) === 'late') app.log.warn('the atlas pack is still loading: the server starts, atlas /ready answers 503 until the pack is in');
    clearTimeout(timer);
  } else {
    await loading;
  }

  usage.start(USAGE_FLUSH_MS, (error) => app.log.error({ err: error }, 'atlas usage flush failed'));
  // Children close before their parents, so this runs before buildApp closes the database.
  app.addHook('onClose', async () => {
    usage.stop();
    try {
      usage.flush();
    } catch (error) {
      app.log.error({ err: error }, 'atlas usage flush on close failed');
    }
  });
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
        const atlas = store.current;
        if (!result.ready || !atlas) throw new ServiceError(503, 'NOT_READY', result.reasons.join('; '));
        const { packId, packName, channel, releasedAt, version } = atlas.pack.version;
        return { ok: true as const, service: 'atlas', version, packId, packName, channel, releasedAt };
      },
    );
    for (const url of ['/api/atlas/v1/openapi.json', '/openapi.json']) {
      typed.get(url, { schema: { summary: 'This OpenAPI 3.1 contract', tags: ['atlas'], security: [] } }, async () => app.swagger());
    }
  });

  await app.register(async (prot) => {
    await requireBearer(prot, 'atlas', ctx.auth);
    await limitPerKey(prot, ctx.config.rateLimitPerMinute);
    // Metering: one Map increment after the answer has gone out. Counted: authenticated requests
    // answered below 500, except 429 (throttled requests are not usage).
    prot.addHook('onResponse', async (request, reply) => {
      const keyId = request.principal?.keyId;
      const url = request.routeOptions.url;
      if (!keyId || !url?.startsWith(V1 + '/') || reply.statusCode >= 500 || reply.statusCode === 429) return;
      usage.record(keyId, url.slice(V1.length + 1));
    });
    await prot.register(atlasRoutes, { store, usage, billingPlan: ctx.config.billingPlan });
  });
}
