import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

/**
 * An error a route raises on purpose. The error handler renders it in the body shape of the
 * service that owns the route; nothing else about the exception reaches the client.
 */
export class ServiceError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    message: string,
    public readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const notImplemented = (what: string) =>
  new ServiceError(501, 'NOT_IMPLEMENTED', `${what} is part of the contract but not implemented yet`);

export type ErrorStyle = 'classics' | 'atlas';

/** Which body shape a URL answers in: atlas paths (and the /openapi.json alias) use the atlas shape. */
export function styleFor(url: string): ErrorStyle {
  return url.startsWith('/api/atlas/') || url === '/openapi.json' || url.startsWith('/openapi.json?') ? 'atlas' : 'classics';
}

const ATLAS_CODES: Record<number, string> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'INVALID_REQUEST',
  422: 'INVALID_REQUEST',
  429: 'RATE_LIMITED',
};

export interface ErrorBodyInput {
  statusCode: number;
  code: string;
  message: string;
  details?: unknown;
}

export function errorBody(style: ErrorStyle, input: ErrorBodyInput, traceId: string) {
  if (style === 'atlas') {
    const code = input.statusCode >= 500 ? (input.code === 'NOT_READY' ? 'NOT_READY' : 'INTERNAL') : input.code;
    const error: Record<string, unknown> = { code, message: input.message };
    if (input.details !== undefined) error.details = input.details;
    return { error };
  }
  return {
    error: {
      code: input.code,
      message: input.message,
      severity: input.statusCode >= 500 ? 'error' : 'warning',
      traceId,
      retryable: input.statusCode === 429 || input.statusCode === 503,
      ...(input.details !== undefined ? { details: input.details } : {}),
    },
  };
}

/** Turns any thrown value into {statusCode, code, message}; 5xx messages never carry internals. */
export function classify(error: unknown, style: ErrorStyle): ErrorBodyInput {
  if (error instanceof ServiceError) {
    return { statusCode: error.statusCode, code: error.code, message: error.message, details: error.details };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = (error as { validationContext?: string }).validationContext ?? 'body';
    const problems = error.validation.map((issue) => {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return `${where}${path ? '.' + path : ''}: ${issue.message}`;
    });
    return { statusCode: 400, code: 'INVALID_REQUEST', message: problems.join('; ') };
  }
  if (isResponseSerializationError(error)) {
    return { statusCode: 500, code: 'INTERNAL', message: 'Internal error' };
  }
  const fe = error as Partial<FastifyError> & { status?: number };
  const status = fe.statusCode ?? fe.status ?? 500;
  if (fe.code?.startsWith('FST_BEARER_AUTH')) {
    return { statusCode: 401, code: 'UNAUTHORIZED', message: 'missing or invalid bearer token' };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { statusCode: 400, code: 'INVALID_REQUEST', message: 'body: Content-Type must be application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { statusCode: 400, code: 'INVALID_REQUEST', message: 'body: a JSON body is required' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { statusCode: 400, code: 'INVALID_REQUEST', message: 'body: malformed JSON' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'body: larger than the request size limit' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { statusCode: 400, code: 'INVALID_REQUEST', message: 'body: Content-Length does not match the body' };
  }
  if (error instanceof SyntaxError && status === 400) {
    return { statusCode: 400, code: 'INVALID_REQUEST', message: 'body: malformed JSON' };
  }
  if (status >= 400 && status < 500) {
    const code = style === 'atlas' ? (ATLAS_CODES[status] ?? 'INVALID_REQUEST') : status === 429 ? 'RATE_LIMITED' : 'INVALID_REQUEST';
    return { statusCode: status, code, message: status === 429 ? 'Too many requests' : fe.message ?? 'Bad request' };
  }
  if (status === 503) return { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable' };
  return { statusCode: 500, code: 'INTERNAL', message: 'Internal error' };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, input: ErrorBodyInput) {
  const style = styleFor(request.url);
  return reply.code(input.statusCode).type('application/json').send(errorBody(style, input, String(request.id)));
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const style = styleFor(request.url);
  const input = classify(error, style);
  if (input.statusCode >= 500 && !(error instanceof ServiceError)) {
    request.log.error({ err: error }, 'request failed');
  } else {
    request.log.info({ code: input.code, status: input.statusCode }, 'request refused');
  }
  return sendError(request, reply, input);
}

/**
 * Fastify's router refuses some URLs before any hook or error handler runs: a path that is not
 * valid percent-encoding (FST_ERR_BAD_URL) and a path parameter longer than the router's
 * `maxParamLength` (FST_ERR_MAX_PARAM_LENGTH). Without this, those answers carry Fastify's own
 * body; passed as the `frameworkErrors` option of Fastify(), they answer in the service's body.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const input: ErrorBodyInput =
    error.code === 'FST_ERR_BAD_URL'
      ? { statusCode: 400, code: 'INVALID_REQUEST', message: 'path: not a valid URL (malformed percent-encoding)' }
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? { statusCode: 414, code: 'INVALID_REQUEST', message: 'path: a path parameter is longer than the service accepts' }
        : classify(error, styleFor(request.url));
  request.log.info({ code: input.code, status: input.statusCode }, 'request refused by the router');
  // No onRequest hook runs for these: echo the request id here.
  reply.header('x-request-id', request.id);
  return sendError(request, reply, input);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return sendError(request, reply, {
    statusCode: 404,
    code: 'NOT_FOUND',
    message: `No route ${request.method} ${request.url.split('?')[0]}`,
  });
}
