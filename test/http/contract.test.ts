import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_FILES, serialize } from '../../scripts/openapi.js';
import { auth, makeApp, TOKENS, type TestApp } from '../helpers.js';

interface Endpoint {
  service: 'classics' | 'atlas';
  method: string;
  path: string;
  public: boolean;
}

// A copy of shared/spec/endpoints.json (the contract's 95 endpoints as data), kept in the repo so
// that the test runs wherever the repository is cloned.
const endpoints = JSON.parse(readFileSync(new URL('../contract/endpoints.json', import.meta.url), 'utf8')) as Endpoint[];
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'probe-id');
const tokenFor = (e: Endpoint) => (e.service === 'atlas' ? TOKENS.atlasAdmin : TOKENS.classics);

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

describe('the contract', () => {
  it('lists 95 endpoints', () => {
    expect(endpoints).toHaveLength(95);
  });

  it('registers every endpoint of both contracts', () => {
    const missing = endpoints.filter((e) => !t.app.hasRoute({ method: e.method as 'GET', url: e.path.replace(/\{(\w+)\}/g, ':$1') }));
    expect(missing.map((e) => `${e.method} ${e.path}`)).toEqual([]);
  });

  it('answers every protected endpoint without a token with 401 in the service body', async () => {
    for (const e of endpoints.filter((x) => !x.public)) {
      const response = await t.app.inject({ method: e.method as 'GET', url: concrete(e.path) });
      expect(response.statusCode, `${e.method} ${e.path}`).toBe(401);
      const body = response.json();
      expect(body.error.code, e.path).toBe('UNAUTHORIZED');
      if (e.service === 'classics') {
        expect(body.error).toMatchObject({ severity: 'warning', retryable: false, traceId: response.headers['x-request-id'] });
      } else {
        expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
      }
    }
  });

  it('answers a wrong token like a missing one', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/atlas/v1/search', headers: auth('not-a-real-key-000000'), payload: { q: 'x' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'missing or invalid bearer token' } });
  });

  it('serves the public endpoints without a token', async () => {
    for (const e of endpoints.filter((x) => x.public)) {
      const response = await t.app.inject({ method: 'GET', url: e.path });
      expect(response.statusCode, e.path).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/classics/v1/openapi.json' })).statusCode).toBe(200);
  });

  it('never answers 404 for a contract endpoint called with a valid token', async () => {
    for (const e of endpoints) {
      const response = await t.app.inject({ method: e.method as 'GET', url: concrete(e.path), headers: auth(tokenFor(e)), payload: e.method === 'POST' ? {} : undefined });
      const routeMissing = response.statusCode === 404 && /No route/.test(response.body);
      expect(routeMissing, `${e.method} ${e.path}`).toBe(false);
    }
  });

  it.each(Object.entries(CONTRACT_FILES))('serves the %s contract exactly as committed (run `npm run openapi` after a schema change)', async (_name, { url, file }) => {
    const served = serialize((await t.app.inject({ method: 'GET', url })).json());
    expect(served).toBe(readFileSync(file, 'utf8'));
  });

  it('publishes OpenAPI 3.1 with bearer security, every route and the error bodies', async () => {
    for (const { url } of Object.values(CONTRACT_FILES)) {
      const doc = (await t.app.inject({ method: 'GET', url })).json();
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      for (const e of endpoints.filter((x) => url.includes(x.service))) {
        const operation = doc.paths[e.path]?.[e.method.toLowerCase()];
        expect(operation, `${e.method} ${e.path}`).toBeDefined();
        if (!e.public) expect(Object.keys(operation.responses), e.path).toEqual(expect.arrayContaining(['400', '401', '429', '500']));
        else expect(operation.security).toEqual([]);
      }
    }
  });
});
