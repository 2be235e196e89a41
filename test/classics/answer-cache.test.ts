import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache } from '../../src/classics/answer-cache.js';
import { auth, makeApp, TOKENS, type TestApp } from '../helpers.js';

describe('AnswerCache', () => {
  it('computes a key once and answers repeats from the cache', () => {
    const cache = new AnswerCache(8);
    let runs = 0;
    const compute = () => ({ n: ++runs });
    expect(cache.through(['a', 1], compute)).toEqual({ value: { n: 1 }, hit: false });
    expect(cache.through(['a', 1], compute)).toEqual({ value: { n: 1 }, hit: true });
    expect(cache.through(['a', 2], compute)).toEqual({ value: { n: 2 }, hit: false });
    expect(runs).toBe(2);
  });

  it('keeps at most max entries, dropping the least recently used', () => {
    const cache = new AnswerCache(2);
    let runs = 0;
    const compute = () => ({ n: ++runs });
    cache.through(['a'], compute);
    cache.through(['b'], compute);
    cache.through(['a'], compute);
    cache.through(['c'], compute);
    expect(cache.size).toBe(2);
    expect(cache.through(['a'], compute).hit).toBe(true);
    expect(cache.through(['b'], compute).hit).toBe(false);
  });

  it('stores nothing when off or when the computation throws', () => {
    const off = new AnswerCache(0);
    let runs = 0;
    off.through(['a'], () => ({ n: ++runs }));
    expect(off.through(['a'], () => ({ n: ++runs }))).toEqual({ value: { n: 2 }, hit: false });
    const on = new AnswerCache(4);
    expect(() => on.through(['x'], () => {
      throw new Error('bad scope');
    })).toThrow('bad scope');
    expect(on.size).toBe(0);
  });
});

describe('answers served through the cache', () => {
  let cached: TestApp;
  let uncached: TestApp;
  const headers = auth(TOKENS.classics);
  beforeAll(async () => {
    [cached, uncached] = await Promise.all([makeApp(), makeApp({ resultCacheEntries: 0 })]);
  });
  afterAll(async () => {
    await Promise.all([cached.close(), uncached.close()]);
  });
  const post = async (t: TestApp, url: string, payload: object) => (await t.app.inject({ method: 'POST', url: `/api/classics/v1/${url}`, headers, payload })).json();
  const sameExceptId = (a: { query_id: string }, b: { query_id: string }) => expect({ ...a, query_id: '' }).toEqual({ ...b, query_id: '' });

  it('gives a repeated trusted query a new id and the answer it would compute', async () => {
    const body = { query: 'What does the Daodejing say about water?', expression_mode: 'study' };
    const first = await post(cached, 'trusted-query', body);
    const second = await post(cached, 'trusted-query', body);
    const computed = await post(uncached, 'trusted-query', body);
    expect(second.query_id).not.toBe(first.query_id);
    sameExceptId(second, first);
    sameExceptId(second, computed);
    // A different expression mode is a different answer, not the cached one.
    const other = await post(cached, 'trusted-query', { ...body, expression_mode: 'citation_first' });
    expect(other.answer_mode).not.toBe(second.answer_mode);
  });

  it('audits every cached answer with what it rests on', async () => {
    const body = { query: '上善若水是什么意思？' };
    const a = await post(cached, 'trusted-query', body);
    const b = await post(cached, 'trusted-query', body);
    const audit = (await cached.app.inject({ method: 'GET', url: '/api/classics/v1/trusted-query/audit?limit=2', headers })).json();
    const [newest, older] = audit.events;
    expect([newest.query_id, older.query_id]).toEqual([b.query_id, a.query_id]);
    expect(newest.evidence_ids).toEqual(older.evidence_ids);
    expect(newest.claim_ids).toEqual(b.claims.map((c: { claim_id: string }) => c.claim_id));
    expect(Object.keys(newest.timings_ms)).toEqual(['answer_cache_hit']);
    expect(Object.keys(older.timings_ms)).toContain('retrieve');
  });

  it('gives a repeated illumination a new id and the same perspectives', async () => {
    const body = { query: 'I keep putting off a project that scares me.' };
    const first = await post(cached, 'illuminate', body);
    const second = await post(cached, 'illuminate', body);
    expect(second.query_id).not.toBe(first.query_id);
    sameExceptId(second, first);
    sameExceptId(second, await post(uncached, 'illuminate', body));
    // The context is part of the request: it is answered as computed, not as the bare question was.
    const withContext = { ...body, minimal_context: 'It is my thesis and my supervisor is waiting.' };
    sameExceptId(await post(cached, 'illuminate', withContext), await post(uncached, 'illuminate', withContext));
  });
});
