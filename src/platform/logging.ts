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

/** Query parameters that carry a credential when a client puts one in the URL by mistake. */
const SECRET_PARAM = /^(token|access_token|api[_-]?key|key|auth|authorization|bearer|password|secret)$/i;

const decodeName = (name: string) => {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
};

/** The URL as logged: values of credential-like query parameters are replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq !== -1 && SECRET_PARAM.test(decodeName(part.slice(0, eq))) ? `${part.slice(0, eq)}=[redacted]` : part;
    });
  return `${url.slice(0, q)}?${query.join('&')}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/** Fastify's own request serializer, with credential-like query values redacted from the URL. */
function req(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { req },
    ...(stream ? { stream } : {}),
  } as FastifyServerOptions['logger'];
}
