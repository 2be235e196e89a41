/** Helpers for declaring the governance contract's routes (stubs until built). */
import type { ContractRoute } from '../platform/routes.js';
import { IdParams, OpenObject } from '../classics/schemas.js';

export const V1 = '/api/classics/v1';

export const post = (url: string, summary: string, tag: string, code?: string): ContractRoute => ({
  method: 'POST',
  url: `${V1}${url}`,
  summary: code ? `${summary} (422 ${code})` : summary,
  tags: [tag],
  body: OpenObject,
  ...(url.includes('{id}') ? { params: IdParams } : {}),
  errors: code ? [404, 422] : [404],
});

export const get = (url: string, summary: string, tag: string): ContractRoute => ({
  method: 'GET',
  url: `${V1}${url}`,
  summary,
  tags: [tag],
  querystring: OpenObject,
  ...(url.includes('{id}') ? { params: IdParams } : {}),
  errors: [404],
});

export const toFastify = (route: ContractRoute): ContractRoute => ({ ...route, url: route.url.replace(/\{(\w+)\}/g, ':$1') });

