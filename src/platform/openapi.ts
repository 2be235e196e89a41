import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const ClassicsErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      severity: z.enum(['warning', 'error']),
      traceId: z.string(),
      retryable: z.boolean(),
      details: z.unknown().optional(),
    }),
  });

export const AtlasErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  });

const DESCRIPTIONS: Record<number, string> = {
  400: 'INVALID_REQUEST: the request failed validation; the message names the field',
  401: 'UNAUTHORIZED: missing or invalid bearer token',
  403: 'FORBIDDEN: the credential may not call this endpoint',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE: the body is over the size limit (1 MiB by default)',
  422: 'A governance or discovery rule refused the request; the code names the rule',
  429: 'RATE_LIMITED: too many requests for this key; see Retry-After',
  500: 'INTERNAL: generic failure, no details',
  501: 'NOT_IMPLEMENTED: part of the contract, not built yet',
  503: 'Not ready, or overloaded (retryable)',
};

/** Response schemas for the error statuses a route can answer, in the service's error shape. */
export function errorResponses(style: 'classics' | 'atlas', statuses: number[]) {
  const schema = style === 'atlas' ? AtlasErrorSchema : ClassicsErrorSchema;
  const out: Record<number, z.ZodType> = {};
  for (const status of statuses) out[status] = schema.describe(DESCRIPTIONS[status] ?? 'error');
  return out;
}

/** One OpenAPI 3.1 document per service: @fastify/swagger collects the routes of the scope it is registered in. */
export async function registerContract(
  scope: FastifyInstance,
  info: { title: string; version: string; description: string },
  tags: { name: string; description: string }[],
) {
  await scope.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info,
      tags,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token or key>' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
}
