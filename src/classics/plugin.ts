import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IssueCandidates } from '../governance/issue-candidates.js';
import { governanceRoutes } from '../governance/routes.js';
import { requireBearer } from '../platform/auth.js';
import type { PlatformContext } from '../platform/context.js';
import { registerContract } from '../platform/openapi.js';
import { limitPerKey } from '../platform/rate-limit.js';
import type { Library } from './library.js';
import { classicsRoutes } from './routes.js';

export const CLASSICS_CONTRACT_VERSION = '1.1.0';

const ReadyResponse = z.object({
  ready: z.boolean(),
  service: z.literal('classics'),
  version: z.string(),
  checks: z.record(z.string(), z.boolean()),
  reasons: z.array(z.string()),
});

/** The classics knowledge runtime: /api/classics/v1|v2|v3 and /api/personal-graph/v1. */
export async function classicsPlugin(app: FastifyInstance, opts: { ctx: PlatformContext; lib: Library }) {
  const { ctx, lib } = opts;
  if (lib.errors.length) app.log.error({ problems: lib.errors.slice(0, 20), count: lib.errors.length }, 'classics packs failed validation');
  ctx.readiness.add('classics', {
    name: 'packs',
    check: () =>
      lib.errors.length
        ? { ok: false, reason: `packs: ${lib.errors.length} validation problem(s), first: ${lib.errors[0]}` }
        : lib.knowledge.passages.length
          ? { ok: true }
          : { ok: false, reason: 'packs: no passages loaded' },
  });
  ctx.readiness.add('classics', {
    name: 'gate',
    check: () =>
      lib.gateSelfTest.passed
        ? { ok: true }
        : {
            ok: false,
            reason: `gate self-test: ${lib.gateSelfTest.failures.length} of ${lib.gateSelfTest.total} fixtures got the wrong verdict${lib.gateSelfTest.failures[0] ? `, e.g. ${lib.gateSelfTest.failures[0].id}` : ''}`,
          },
  });
  await registerContract(
    app,
    {
      title: 'Classics Knowledge Runtime',
      version: CLASSICS_CONTRACT_VERSION,
      description:
        'Read-only, evidence-first knowledge service over the Daoist, Confucian, Buddhist and Yangming traditions. ' +
        'Every protected route needs `Authorization: Bearer <token>`; governance decisions need `X-Actor: <kind>:<id>`.',
    },
    [
      { name: 'core', description: 'Readiness and contract' },
      { name: 'trusted-query', description: 'Evidence pipeline (KB-TKP-1.0)' },
      { name: 'illumination', description: 'Four perspectives (KB-Illumination-1.1)' },
      { name: 'insights', description: 'Situations in, insights and actions out' },
      { name: 'runtime', description: 'Unified runtime, adapters, telemetry' },
      { name: 'orchestration', description: 'Intent to trace' },
      { name: 'packs', description: 'Packs and releases' },
      { name: 'feedback', description: 'Feedback into the issue flow' },
      { name: 'graph', description: 'Graph reads (v2)' },
      { name: 'workbench', description: 'Candidates and releases (v3)' },
      { name: 'personal-graph', description: 'Per-user references' },
      { name: 'evolution-governance', description: 'Signals, candidates, reviews, approvals, pins' },
      { name: 'discovery', description: 'Sources, qualifications, discovery candidates' },
      { name: 'knowledge-evolution', description: 'States, drift, conflicts, events, audit' },
    ],
  );

  await app.register(async (pub) => {
    const typed = pub.withTypeProvider<ZodTypeProvider>();
    typed.get(
      '/api/classics/v1/ready',
      {
        schema: {
          summary: 'Readiness: packs loaded, database writable, Gate self-test passed (and configured tokens in production)',
          tags: ['core'],
          security: [],
          response: { 200: ReadyResponse, 503: ReadyResponse },
        },
      },
      async (_request, reply) => {
        const result = ctx.readiness.evaluate('classics');
        return reply.code(result.ready ? 200 : 503).send({ service: 'classics', version: CLASSICS_CONTRACT_VERSION, ...result });
      },
    );
    typed.get(
      '/api/classics/v1/openapi.json',
      { schema: { summary: 'This OpenAPI 3.1 contract', tags: ['core'], security: [] } },
      async () => app.swagger(),
    );
    await pub.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      uiConfig: {
        urls: [
          { url: '/api/classics/v1/openapi.json', name: 'Classics Knowledge Runtime' },
          { url: '/api/atlas/v1/openapi.json', name: 'Design Atlas' },
        ],
      } as never,
    });
  });

  await app.register(async (prot) => {
    await requireBearer(prot, 'classics', ctx.auth);
    await limitPerKey(prot, ctx.config.rateLimitPerMinute);
    // A request that comes while the passage index or the precedents' index is still being built
    // in slices waits for that build, instead of building it again at once and holding the event
    // loop for seconds.
    prot.addHook('preHandler', async () => {
      await lib.retrieval.warm();
      await lib.precedents?.warm();
    });
    const issues = new IssueCandidates(ctx.ledger);
    await prot.register(classicsRoutes, { lib, ledger: ctx.ledger, issues });
    await prot.register(governanceRoutes, { deps: { config: ctx.config, ledger: ctx.ledger, issues, lib } });
  });
}
