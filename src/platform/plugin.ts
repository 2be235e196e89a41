import helmet from '@fastify/helmet';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyMetrics from 'fastify-metrics';
import promClient from 'prom-client';
import type { PlatformContext } from './context.js';
import { errorHandler, notFoundHandler, sendError, ServiceError } from './errors.js';

// fastify-metrics is CommonJS compiled from ES modules: from ESM its plugin sits on `.default`.
const metrics = fastifyMetrics.default;

/**
 * Cross-cutting plugins shared by both services: security headers, overload shedding, metrics,
 * the one error handler and the one not-found handler, and the request id echo.
 */
async function platform(app: FastifyInstance, opts: { ctx: PlatformContext }) {
  const { ctx } = opts;
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  // JSON only: a text/plain body is refused as a wrong content type instead of reaching validation.
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // The contract is JSON only; the docs page sets its own, stricter policy on its routes.
  await app.register(helmet, { contentSecurityPolicy: false, global: true });

  await app.register(underPressure, {
    maxEventLoopDelay: ctx.config.maxEventLoopDelayMs,
    pressureHandler: (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('retry-after', '1');
      sendError(request, reply, { statusCode: 503, code: 'OVERLOADED', message: 'the service is overloaded; retry shortly' });
    },
  });

  const adminOnly = async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const principal = token ? ctx.auth.authenticate('atlas', token) : undefined;
    if (!principal) throw new ServiceError(401, 'UNAUTHORIZED', 'missing or invalid bearer token');
    if (!principal.admin) throw new ServiceError(403, 'FORBIDDEN', '/metrics needs an atlas admin key');
  };
  // One registry per app instance, so that several apps in one process (tests) never collide.
  const registry = new promClient.Registry();
  await app.register(metrics, {
    endpoint: { url: '/metrics', method: 'GET', onRequest: adminOnly, schema: { hide: true } } as never,
    promClient,
    defaultMetrics: { enabled: true, register: registry },
    routeMetrics: {
      enabled: true,
      registeredRoutesOnly: true,
      groupStatusCodes: false,
      overrides: { histogram: { registers: [registry] }, summary: { registers: [registry] } },
    },
  });
  new promClient.Gauge({
    registers: [registry],
    name: 'ledger_rows',
    help: 'Rows in the append-only governance ledger',
    collect() {
      this.set(ctx.ledger.count());
    },
  });
}

export const platformPlugin = fp(platform, { name: 'platform', fastify: '5.x' });
