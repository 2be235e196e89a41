import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/**
 * pino options. Credentials travel in the Authorization header (and, for MCP clients, in an
 * api key header): both are redacted wherever a serializer might put them.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'authorization',
  'token',
  'key',
  '*.token',
  '*.key',
  '*.apiKey',
];

export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(stream ? { stream } : {}),
  } as FastifyServerOptions['logger'];
}
