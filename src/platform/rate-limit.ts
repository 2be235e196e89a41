import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from './errors.js';

/**
 * Per-key limit for the protected routes of a scope. Registered after the bearer check, so the
 * key is known: each credential (never its raw value) has its own budget.
 */
export async function limitPerKey(scope: FastifyInstance, perMinute: number) {
  await scope.register(rateLimit, {
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => request.principal?.keyId ?? `ip:${request.ip}`,
    errorResponseBuilder: (_request, context) =>
      new ServiceError(429, 'RATE_LIMITED', `rate limit of ${context.max} requests per minute reached; retry in ${context.after}`),
  });
}
