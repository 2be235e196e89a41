import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project } from '../../../src/classics/runtime/adapters.js';
import { Observations, percentile } from '../../../src/classics/runtime/observations.js';
import type { RuntimeResult } from '../../../src/classics/runtime/schemas.js';
import { makeRuntimeApp, RUNTIME, type RuntimeTestApp } from './helpers.js';

let t: RuntimeTestApp;
beforeAll(async () => {
  t = await makeRuntimeApp();
});
afterAll(() => t.close());

const ADAPTERS = '/api/classics/v1/runtime/adapters';
const execute = (id: string, payload: unknown) => t.post(`${ADAPTERS}/${id}/execute`, payload);
const observations = async (query = '') => t.get(`/api/classics/v1/runtime/observations${query}`);

describe('GET /runtime/adapters', () => {
  it('lists the five products with their request shape, mapping and projection', async () => {
    const { status, body } = await t.get(ADAPTERS);
    expect(status).toBe(200);
    expect(body.total).toBe(5);
    expect(body.adapters.map((a: { id: string }) => a.id)).toEqual(['daily-reflection', 'classics-study', 'coaching-assistant', 'e-reader', 'editorial-console']);
    for (const a of body.adapters) {
      expect(a.requestShape).toMatchObject({ type: 'object' });
      expect(a.runtimeMapping.runtimeMode).toMatch(/^(lookup|explore|compare|source|path|report_support)$/);
      expect(a.responseProjection.fields.length).toBeGreaterThan(0);
    }
  });
});

describe('POST /runtime/adapters/{adapterId}/execute', () => {
  it.each([
    ['daily-reflection', { mood: 'I feel drained by my job every day' }, 'explore', ['illumination', 'matchedSituations']],
    ['classics-study', { pathId: 'path.wuwei', sourceId: 'src.daodejing' }, 'path', ['path', 'source', 'citations']],
    ['coaching-assistant', { situation: 'My boss takes credit for my work' }, 'report_support', ['synthesized', 'insights', 'limitations', 'citations']],
    ['e-reader', { objectId: 'ddj.8', locale: 'zh' }, 'lookup', ['object', 'claims', 'concepts', 'misreadings', 'conflicts', 'citations']],
    ['editorial-console', { relationId: 'conflict.gewu' }, 'compare', ['compare', 'citations']],
  ])('%s: maps the product request to the runtime and projects the response', async (id, productRequest, mode, keys) => {
    const { status, body } = await execute(id, productRequest);
    expect(status).toBe(200);
    expect(body.adapterId).toBe(id);
    expect(body.productRequest).toEqual(productRequest);
    expect(body.runtime).toMatchObject({ runtimeMode: mode, productId: id });
    expect(Object.keys(body.response).sort()).toEqual([...keys].sort());
  });

  it('maps each product field to its runtime field and keeps only the projected paths', async () => {
    const reader = (await execute('e-reader', { objectId: 'ddj.8', locale: 'zh' })).body;
    expect(reader.runtime).toMatchObject({ objectId: 'ddj.8', locale: 'zh' });
    expect(Object.keys(reader.response.object).sort()).toEqual(['en', 'id', 'locator', 'text']);
    const daily = (await execute('daily-reflection', { mood: 'I feel drained by my job every day' })).body;
    expect(daily.runtime.query).toBe('I feel drained by my job every day');
    expect(Object.keys(daily.response.illumination)).toEqual(['insight']);
    expect(daily.response.illumination.insight.text.length).toBeGreaterThan(0);
    const study = (await execute('classics-study', { pathId: 'path.wuwei' })).body;
    expect(Object.keys(study.response.path).sort()).toEqual(['description', 'id', 'steps', 'title']);
    expect(study.response.path.steps).toHaveLength(7);
    const editorial = (await execute('editorial-console', { leftId: 'concept.wuwei', rightId: 'concept.common.idleness' })).body;
    expect(editorial.runtime).toMatchObject({ objectId: 'concept.wuwei', query: 'concept.common.idleness' });
    expect(editorial.response.compare.nonEquivalence.length).toBeGreaterThan(0);
    expect(editorial.response.compare.severity).toBeDefined();
  });

  it.each([
    ['daily-reflection', {}, /^body\.mood: required/],
    ['daily-reflection', { mood: 'tired', weather: 'rain' }, /^body\.weather: not a field/],
    ['classics-study', { pathId: 7 }, /^body\.pathId: must be string/],
    ['coaching-assistant', { situation: 'x'.repeat(4001) }, /^body\.situation: must NOT have more than 4000 characters/],
    ['e-reader', { objectId: 'ddj.8', locale: 'fr' }, /^body\.locale: must be equal to one of the allowed values/],
    ['editorial-console', {}, /^body\.relationId: the Editorial Console request needs relationId, or leftId and rightId/],
  ])('%s: refuses %j with 400 naming the field', async (id, productRequest, message) => {
    const { status, body } = await execute(id, productRequest);
    expect(status).toBe(400);
    expect(body.error.code).toBe('INVALID_REQUEST');
    expect(body.error.message).toMatch(message);
  });

  it('answers 404 for an unknown adapter', async () => {
    const { status, body } = await execute('fortune-teller', { mood: 'x' });
    expect(status).toBe(404);
    expect(body.error.message).toMatch(/no adapter fortune-teller/);
  });

  it('projects a Gate-blocked request to its abstention', async () => {
    const { status, body } = await execute('daily-reflection', { mood: 'Cast a hexagram for my marriage.' });
    expect(status).toBe(200);
    expect(body.response).toEqual({ abstention: { reason: 'GATE_BLOCKED', category: 'divination', message: expect.any(String) } });
  });
});

describe('GET /runtime/observations', () => {
  it('records every runtime and adapter call with mode, product, adapter, duration, outcome and release', async () => {
    const before = (await observations('?limit=200')).body;
    await t.post(RUNTIME, { runtimeMode: 'path', productId: 'obs-product', pathId: 'path.wuwei' });
    await t.post(RUNTIME, { runtimeMode: 'path', productId: 'obs-product', pathId: 'path.nowhere' });
    await t.post(RUNTIME, { runtimeMode: 'explore', productId: 'obs-product', query: 'Cast a hexagram for my marriage.' });
    await execute('e-reader', { objectId: 'ddj.8' });
    await execute('no-such-adapter', {});
    const after = (await observations('?limit=5')).body;
    const count = (body: typeof before, mode: string) => body.summary[mode]?.count ?? 0;
    const errors = (body: typeof before, mode: string) => body.summary[mode]?.errors ?? 0;
    expect(count(after, 'path') - count(before, 'path')).toBe(2);
    expect(errors(after, 'path') - errors(before, 'path')).toBe(1);
    expect(count(after, 'explore') - count(before, 'explore')).toBe(1);
    expect(count(after, 'lookup') - count(before, 'lookup')).toBe(1);
    expect(count(after, 'unknown') - count(before, 'unknown')).toBe(1);
    expect(after.totalObserved - before.totalObserved).toBe(5);
    expect(after.recent).toHaveLength(5);
    expect(after.recent.map((r: { outcome: string }) => r.outcome)).toEqual(['client_error', 'ok', 'abstained', 'client_error', 'ok']);
    expect(after.recent[0]).toMatchObject({ mode: null, adapter: 'no-such-adapter', status: 404 });
    expect(after.recent[1]).toMatchObject({ mode: 'lookup', productId: 'e-reader', adapter: 'e-reader', releaseId: '2026.11.1', status: 200 });
    expect(after.recent[3]).toMatchObject({ mode: 'path', productId: 'obs-product', adapter: null, status: 404 });
    for (const r of after.recent) expect(r.durationMs).toBeGreaterThanOrEqual(0);
    const s = after.summary.path;
    expect(s.p50).toBeLessThanOrEqual(s.p95);
    expect(s.p95).toBeLessThanOrEqual(s.p99);
  });

  it('returns 50 recent records by default and accepts a limit of 1 to 200', async () => {
    for (let i = 0; i < 55; i++) await t.post(RUNTIME, { runtimeMode: 'lookup', productId: 'bulk', objectId: 'nothing' });
    expect((await observations()).body.recent).toHaveLength(50);
    expect((await observations('?limit=1')).body.recent).toHaveLength(1);
    expect((await observations('?limit=200')).body.recent.length).toBeGreaterThan(55);
    for (const limit of ['0', '201', 'abc']) {
      const { status, body } = await observations(`?limit=${limit}`);
      expect(status, limit).toBe(400);
      expect(body.error.message).toMatch(/^querystring\.limit/);
    }
  });
});

describe('the observation buffer', () => {
  const record = (mode: 'lookup' | 'path', durationMs: number, status = 200) => ({
    at: new Date().toISOString(),
    mode,
    productId: 'p',
    adapter: null,
    durationMs,
    outcome: status >= 400 ? ('client_error' as const) : ('ok' as const),
    status,
    releaseId: 'r',
  });

  it('keeps only the most recent records when full and summarizes what it keeps', () => {
    const buffer = new Observations(3);
    for (const d of [1, 2, 3, 4, 5]) buffer.record(record('lookup', d));
    const report = buffer.report(10);
    expect(report).toMatchObject({ capacity: 3, retained: 3, totalObserved: 5 });
    expect(report.recent.map((r) => r.durationMs)).toEqual([5, 4, 3]);
    expect(report.summary.lookup).toEqual({ count: 3, errors: 0, p50: 4, p95: 5, p99: 5 });
  });

  it('computes nearest-rank percentiles and counts errors per mode', () => {
    expect(percentile([], 50)).toBe(0);
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(sorted, 50), percentile(sorted, 95), percentile(sorted, 99)]).toEqual([50, 95, 99]);
    const buffer = new Observations(10);
    buffer.record(record('path', 3, 404));
    buffer.record(record('path', 1));
    expect(buffer.report(1).summary.path).toMatchObject({ count: 2, errors: 1 });
    expect(buffer.report(1).recent).toHaveLength(1);
  });
});

describe('projection', () => {
  it('keeps the dotted paths the result has and leaves out the rest', () => {
    const result = { runtimeMode: 'path', abstention: null, path: { id: 'p', title: 't', steps: [1, 2] }, citations: [] } as unknown as RuntimeResult;
    expect(project(result, ['path.id', 'path.steps', 'path.missing', 'source', 'citations'])).toEqual({ path: { id: 'p', steps: [1, 2] }, citations: [] });
  });
});
