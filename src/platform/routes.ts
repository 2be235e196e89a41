import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { notImplemented } from './errors.js';
import { errorResponses } from './openapi.js';

export interface ContractRoute {
  method: 'GET' | 'POST';
  url: string;
  summary: string;
  tags: string[];
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
  /** Error statuses the route documents besides 400/401/429/500. */
  errors?: number[];
}

/**
 * Registers a contract endpoint that a later piece of work implements: the route exists with its
 * auth and request validation, and answers 501 NOT_IMPLEMENTED in the service's error body.
 */
export function contractStub(app: FastifyInstance, style: 'classics' | 'atlas', def: ContractRoute) {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.url,
    schema: {
      summary: def.summary,
      tags: def.tags,
      ...(def.body ? { body: def.body } : {}),
      ...(def.querystring ? { querystring: def.querystring } : {}),
      ...(def.params ? { params: def.params } : {}),
      response: errorResponses(style, [400, 401, 429, 500, 501, ...(def.errors ?? [])]),
    },
    handler: async () => {
      throw notImplemented(`${def.method} ${def.url}`);
    },
  });
}
