/**
 * Reading the served OpenAPI 3.1 documents: operations, their parameters and request bodies, and
 * checking an answer against what the contract says about it (status, error body, 2xx schema).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from './schema-arb.js';

// ajv-formats is CommonJS with a `default` export; depending on the loader it arrives either way.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

export type Service = 'classics' | 'atlas';

export interface Operation {
  service: Service;
  method: 'GET' | 'POST';
  /** OpenAPI path, e.g. /api/classics/v1/evolution/state/{id}/evolve */
  path: string;
  public: boolean;
  pathParams: { name: string; schema: JsonSchema }[];
  queryParams: { name: string; required: boolean; schema: JsonSchema }[];
  headerParams: { name: string; required: boolean; schema: JsonSchema }[];
  body?: { required: boolean; schema: JsonSchema };
  /** status -> JSON schema of the answer body (undefined when the contract gives none). */
  responses: Map<number, JsonSchema | undefined>;
  summary: string;
  description: string;
}

export const opName = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

export function operations(doc: any, service: Service): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post'].includes(method)) continue;
      const params: any[] = op.parameters ?? [];
      const responses = new Map<number, JsonSchema | undefined>();
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        responses.set(Number(status), response?.content?.['application/json']?.schema);
      }
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      out.push({
        service,
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        public: Array.isArray(op.security) && op.security.length === 0,
        pathParams: params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        queryParams: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: !!p.required, schema: p.schema ?? {} })),
        headerParams: params.filter((p) => p.in === 'header').map((p) => ({ name: p.name, required: !!p.required, schema: p.schema ?? {} })),
        ...(bodySchema ? { body: { required: !!op.requestBody.required, schema: bodySchema } } : {}),
        responses,
        summary: op.summary ?? '',
        description: op.description ?? '',
      });
    }
  }
  return out;
}

/** One ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses) with every response schema compiled once. */
export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
  }

  /** Problems with a 2xx body, or [] when it matches the documented schema for that status. */
  check(op: Operation, status: number, body: unknown): string[] {
    if (!op.responses.has(status)) return [`status ${status} is not documented for ${opName(op)}`];
    const schema = op.responses.get(status);
    if (!schema) return [];
    const key = `${opName(op)} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.cache.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`);
  }
}

export const ATLAS_4XX_CODES = ['UNAUTHORIZED', 'FORBIDDEN', 'INVALID_REQUEST', 'NOT_FOUND', 'RATE_LIMITED', 'CONFLICT', 'PAYLOAD_TOO_LARGE', 'PACK_INVALID'];

/** Problems with an error body: the shape of the service that owns the path. */
export function errorBodyProblems(service: Service, status: number, body: any, requestId: string | undefined): string[] {
  const problems: string[] = [];
  const error = body?.error;
  if (!error || typeof error !== 'object') return [`no error object in ${JSON.stringify(body)?.slice(0, 200)}`];
  if (typeof error.code !== 'string' || !error.code) problems.push('error.code is not a non-empty string');
  if (typeof error.message !== 'string' || !error.message) problems.push('error.message is not a non-empty string');
  if (service === 'classics') {
    const severity = status >= 500 ? 'error' : 'warning';
    if (error.severity !== severity) problems.push(`error.severity is ${error.severity}, expected ${severity}`);
    if (typeof error.traceId !== 'string' || error.traceId !== requestId) problems.push(`error.traceId ${error.traceId} is not the x-request-id ${requestId}`);
    if (error.retryable !== (status === 429 || status === 503)) problems.push(`error.retryable is ${error.retryable} for ${status}`);
    const extra = Object.keys(error).filter((k) => !['code', 'message', 'severity', 'traceId', 'retryable', 'details'].includes(k));
    if (extra.length) problems.push(`unexpected error fields ${extra.join(', ')}`);
  } else {
    const extra = Object.keys(error).filter((k) => !['code', 'message', 'details'].includes(k));
    if (extra.length) problems.push(`unexpected error fields ${extra.join(', ')}`);
    if (status < 500 && !ATLAS_4XX_CODES.includes(error.code)) problems.push(`atlas 4xx code ${error.code} is not one of the contract's codes`);
  }
  return problems;
}

/** A stack trace or an internal path in a body is a leak whatever the status. */
export function leakProblems(text: string): string[] {
  const problems: string[] = [];
  if (/\n\s+at .+\(?[^()\s]+\.(ts|js|mjs|cjs):\d+/.test(text) || /\bat [\w.<>]+ \((file:\/\/|\/)[^)]+:\d+:\d+\)/.test(text)) problems.push('body carries a stack trace');
  if (/\/work\/main\/|node_modules\//.test(text)) problems.push('body carries a server file path');
  return problems;
}
