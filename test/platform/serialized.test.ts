import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorHandler } from '../../src/platform/errors.js';
import { sendSerialized, serializedOnce } from '../../src/platform/serialized.js';

const Hit = z.array(z.object({ id: z.string(), score: z.number().min(0).max(1) }));

describe('serialised once', () => {
  it('checks and serialises a value once, strips what the schema does not name, and serves it again from memory', () => {
    const serialize = serializedOnce(Hit, 'POST', '/x');
    const hits = [{ id: 'a', score: 0.5, internal: 'not in the contract' }];
    const json = serialize(hits);
    expect(json).toBe('[{"id":"a","score":0.5}]');
    // The same array is not checked again: a change made to it after the first call does not show.
    hits[0]!.score = 0.9;
    expect(serialize(hits)).toBe(json);
    // Another array with the same content is checked and serialised on its own.
    expect(serialize([{ id: 'a', score: 0.9 }])).toBe('[{"id":"a","score":0.9}]');
  });

  it('answers 500 INTERNAL, without the schema problem, for a value its schema refuses', async () => {
    const app = Fastify({ logger: false });
    app.setErrorHandler(errorHandler);
    const serialize = serializedOnce(Hit, 'GET', '/bad');
    app.get('/bad', async (_request, reply) => sendSerialized(reply, serialize([{ id: 'a', score: 7 }])));
    app.get('/good', async (_request, reply) => sendSerialized(reply, serialize([{ id: 'b', score: 1 }])));
    const bad = await app.inject({ method: 'GET', url: '/bad' });
    expect(bad.statusCode).toBe(500);
    expect(bad.json().error).toMatchObject({ code: 'INTERNAL', message: 'Internal error' });
    expect(bad.json().error.details).toBeUndefined();
    expect(bad.body).not.toMatch(/score|too big|<=/i);
    const good = await app.inject({ method: 'GET', url: '/good' });
    expect(good.statusCode).toBe(200);
    expect(good.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(good.json()).toEqual([{ id: 'b', score: 1 }]);
    await app.close();
  });
});
