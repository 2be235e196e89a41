import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../src/platform/errors.js';
import { contractStub } from '../../src/platform/routes.js';
import { auth, logCapture, makeApp, TOKENS, type TestApp } from '../helpers.js';

let t: TestApp;
const logs = logCapture();
beforeAll(async () => {
  t = await makeApp({ logLevel: 'info' }, logs.stream);
});
afterAll(() => t.close());

const classics = auth(TOKENS.classics);

describe('error bodies', () => {
  it('answers malformed JSON with 400 INVALID_REQUEST', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/classics/v1/trusted-query', headers: { ...classics, 'content-type': 'application/json' }, payload: '{"query": ' });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatchObject({ code: 'INVALID_REQUEST', message: 'body: malformed JSON', severity: 'warning', retryable: false });
  });

  it('answers a wrong content type with 400 naming the body', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/classics/v1/trusted-query', headers: { ...classics, 'content-type': 'text/plain' }, payload: 'query=x' });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toMatch(/Content-Type must be application\/json/);
  });

  it('names the failing field of a schema failure', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/classics/v1/trusted-query', headers: classics, payload: { query: 'x', expression_mode: 'poetry' } });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toMatch(/^body\.expression_mode:/);
  });

  it('names a missing field', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/classics/v1/illuminate', headers: classics, payload: {} });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toMatch(/^body\.query:/);
  });

  it('names a bad query parameter', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/classics/v1/runtime/observations?limit=500', headers: classics });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.message).toMatch(/^querystring\.limit:/);
  });

  it('answers an oversized body with 413 in the service body', async () => {
    const big = JSON.stringify({ query: 'x'.repeat(1024 * 1024 + 10) });
    const r = await t.app.inject({ method: 'POST', url: '/api/atlas/v1/search', headers: { ...auth(TOKENS.atlas), 'content-type': 'application/json' }, payload: big });
    expect(r.statusCode).toBe(413);
    expect(r.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'body: larger than the request size limit' } });
  });

  it('answers unknown routes with 404 in the body of the service the path belongs to', async () => {
    const c = await t.app.inject({ method: 'GET', url: '/api/classics/v1/nope' });
    expect(c.statusCode).toBe(404);
    expect(c.json().error).toMatchObject({ code: 'NOT_FOUND', severity: 'warning' });
    const a = await t.app.inject({ method: 'GET', url: '/api/atlas/v1/nope' });
    expect(a.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No route GET /api/atlas/v1/nope' } });
  });

  it('answers atlas validation failures with the atlas body', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/atlas/v1/search', headers: auth(TOKENS.atlas), payload: { q: '', limit: 1000 } });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe('INVALID_REQUEST');
    expect(r.json().error.message).toMatch(/body\.q/);
    expect(r.json().error.message).toMatch(/body\.limit/);
  });

  it('echoes the request id as x-request-id and traceId, and accepts a safe incoming one', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/classics/v1/packs', headers: { 'x-request-id': 'trace-abc-123' } });
    expect(r.headers['x-request-id']).toBe('trace-abc-123');
    expect(r.json().error.traceId).toBe('trace-abc-123');
    const unsafe = await t.app.inject({ method: 'GET', url: '/api/classics/v1/packs', headers: { 'x-request-id': 'bad id\u0000<script>' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a contract stub with 501 NOT_IMPLEMENTED in the service body, never a stack', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler(errorHandler);
    contractStub(app, 'classics', { method: 'GET', url: '/api/classics/v1/later', summary: 'built later', tags: ['core'] });
    const r = await app.inject({ method: 'GET', url: '/api/classics/v1/later' });
    expect(r.statusCode).toBe(501);
    expect(r.json().error).toMatchObject({ code: 'NOT_IMPLEMENTED', severity: 'error', retryable: false });
    expect(r.body).not.toMatch(/at .*\.ts:\d+/);
    await app.close();
  });

  it('keeps tokens out of the logs', async () => {
    await t.app.inject({ method: 'GET', url: '/api/classics/v1/packs', headers: classics });
    await t.app.inject({ method: 'POST', url: '/api/atlas/v1/search', headers: auth(TOKENS.atlas), payload: { q: 'bauhaus' } });
    await t.app.inject({ method: 'GET', url: '/api/atlas/v1/stats', headers: auth('wrong-token-1234567890') });
    const text = logs.text();
    expect(text).toContain('incoming request');
    expect(text).not.toContain(TOKENS.classics);
    expect(text).not.toContain(TOKENS.atlas);
    expect(text).not.toContain('wrong-token-1234567890');
  });
});

describe('atlas admin and metrics', () => {
  it('refuses a consumer key on admin endpoints with 403 FORBIDDEN', async () => {
    for (const [method, url] of [['POST', '/api/atlas/v1/admin/reload'], ['GET', '/api/atlas/v1/admin/usage'], ['GET', '/api/atlas/v1/admin/billing']] as const) {
      const r = await t.app.inject({ method, url, headers: auth(TOKENS.atlas) });
      expect(r.statusCode, url).toBe(403);
      expect(r.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'this endpoint needs an atlas admin key' } });
    }
  });

  it('serves Prometheus metrics to admin keys only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: auth(TOKENS.atlas) })).statusCode).toBe(403);
    const r = await t.app.inject({ method: 'GET', url: '/metrics', headers: auth(TOKENS.atlasAdmin) });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/plain/);
    expect(r.body).toMatch(/http_request_duration_seconds_bucket\{.*route="\/api\/classics\/v1\/packs"/);
    expect(r.body).toMatch(/^ledger_rows \d+$/m);
  });
});

describe('rate limiting', () => {
  it('answers 429 with the contract body, retryable and Retry-After, per key', async () => {
    const limited = await makeApp({ rateLimitPerMinute: 3 });
    try {
      const call = (token: string) => limited.app.inject({ method: 'GET', url: '/api/classics/v1/packs', headers: auth(token) });
      for (let i = 0; i < 3; i++) expect((await call(TOKENS.classics)).statusCode).toBe(200);
      const r = await call(TOKENS.classics);
      expect(r.statusCode).toBe(429);
      expect(r.json().error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, severity: 'warning' });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      const key = limited.app.ctx.keys.create('bob', 'classics', ['read']).key;
      expect((await call(key)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('readiness', () => {
  it('is ready on a fresh data directory', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/classics/v1/ready' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ ready: true, service: 'classics', checks: { database: true } });
  });

  it('holds the production safety gate closed with generated credentials', async () => {
    const prod = await makeApp({ nodeEnv: 'production', devCredentials: true });
    try {
      const r = await prod.app.inject({ method: 'GET', url: '/api/classics/v1/ready' });
      expect(r.statusCode).toBe(503);
      expect(r.json().ready).toBe(false);
      expect(r.json().reasons.join(' ')).toMatch(/production safety gate/);
    } finally {
      await prod.close();
    }
  });
});
