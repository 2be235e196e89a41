/**
 * Hot reload under load, over a real loopback socket: clients keep sending atlas search, lookup
 * and graph requests while an admin reloads the pack several times, switching between two packs
 * with the same records. Every request must answer 200 with a sound body, including the ones
 * answered while a reload was building its indexes.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, makeApp, tempDir, TOKENS, type TestApp } from '../helpers.js';
import { ROOT } from './lib/server.js';

const V1 = '/api/atlas/v1';
const PACK_A = 'design-history';
const PACK_B = 'design-history-copy';
const RELOADS = 4;
const CLIENTS = 8;
/** Hard cap on the whole load phase, whatever happens. */
const LOAD_PHASE_MAX_MS = 90_000;

interface Sample {
  kind: 'search' | 'lookup' | 'graph';
  status: number;
  problem?: string;
  duringReload: boolean;
}

let t: TestApp;
let packsDir: string;
let base: string;
const samples: Sample[] = [];
const reloads: { status: number; body: any }[] = [];
let networkErrors: string[] = [];

beforeAll(async () => {
  // Two packs with the same records under two ids, so every request has one right answer
  // whichever pack serves it. The classics packs are left out: the atlas does not use them.
  packsDir = tempDir('reload-packs-');
  mkdirSync(join(packsDir, 'classics'));
  const source = join(ROOT, 'packs', 'atlas', PACK_A);
  cpSync(source, join(packsDir, 'atlas', PACK_A), { recursive: true });
  cpSync(source, join(packsDir, 'atlas', PACK_B), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(source, 'manifest.json'), 'utf8'));
  writeFileSync(join(packsDir, 'atlas', PACK_B, 'manifest.json'), JSON.stringify({ ...manifest, packId: PACK_B, version: `${manifest.version}-copy` }));

  t = await makeApp({ packsDir, atlasPackId: PACK_A, rateLimitPerMinute: 1_000_000, maxEventLoopDelayMs: 0 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const entities = (JSON.parse(readFileSync(join(source, 'entities.json'), 'utf8')) as any[]).filter((e) => manifest.filter.visibility.includes(e.visibility));
  const step = Math.max(1, Math.floor(entities.length / 40));
  const sample = entities.filter((_, i) => i % step === 0).slice(0, 40);
  const headers = { ...auth(TOKENS.atlas), 'content-type': 'application/json' };

  let reloading = false;
  let done = false;
  const one = async (i: number) => {
    const e = sample[i % sample.length]!;
    const kind = (['search', 'lookup', 'graph'] as const)[i % 3]!;
    const duringReload = reloading;
    try {
      if (kind === 'search') {
        const r = await fetch(`${base}${V1}/search`, { method: 'POST', headers, body: JSON.stringify({ q: e.displayName }) });
        const body: any = await r.json();
        const problem = r.status !== 200 ? JSON.stringify(body) : body.count !== body.hits.length || !body.hits.some((h: any) => h.id === e.id) ? `search "${e.displayName}" did not find ${e.id}` : undefined;
        samples.push({ kind, status: r.status, duringReload, ...(problem ? { problem } : {}) });
      } else if (kind === 'lookup') {
        const query = i % 2 ? `slug=${encodeURIComponent(e.slug)}` : `id=${encodeURIComponent(e.id)}`;
        const r = await fetch(`${base}${V1}/lookup?${query}`, { headers });
        const body: any = await r.json();
        const problem = r.status !== 200 ? JSON.stringify(body) : body.id !== e.id || body.kind !== 'entity' ? `lookup ${query} answered ${body.id}` : undefined;
        samples.push({ kind, status: r.status, duringReload, ...(problem ? { problem } : {}) });
      } else {
        const r = await fetch(`${base}${V1}/graph`, { method: 'POST', headers, body: JSON.stringify({ rootId: e.id }) });
        const body: any = await r.json();
        const problem = r.status !== 200 ? JSON.stringify(body) : body.rootId !== e.id || !body.nodes.some((n: any) => n.id === e.id) ? `graph of ${e.id} lacks its root` : undefined;
        samples.push({ kind, status: r.status, duringReload, ...(problem ? { problem } : {}) });
      }
    } catch (error) {
      networkErrors.push(`${kind}: ${String(error)}`);
    }
  };

  let counter = 0;
  const started = Date.now();
  const client = async () => {
    while (!done && Date.now() - started < LOAD_PHASE_MAX_MS) await one(counter++);
  };
  const clients = Array.from({ length: CLIENTS }, client);

  // Let traffic settle, then reload back and forth between the two packs.
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < RELOADS && Date.now() - started < LOAD_PHASE_MAX_MS; i++) {
    reloading = true;
    const r = await fetch(`${base}${V1}/admin/reload`, {
      method: 'POST',
      headers: { ...auth(TOKENS.atlasAdmin), 'content-type': 'application/json' },
      body: JSON.stringify({ packId: i % 2 === 0 ? PACK_B : PACK_A }),
    });
    reloads.push({ status: r.status, body: await r.json() });
    reloading = false;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 300));
  done = true;
  await Promise.all(clients);
}, LOAD_PHASE_MAX_MS + 120_000);

afterAll(async () => {
  await t?.close();
  if (packsDir) rmSync(packsDir, { recursive: true, force: true });
});

describe('atlas hot reload under load', () => {
  it('reloads every time, switching packs as asked', () => {
    expect(reloads.map((r) => r.status)).toEqual(Array(RELOADS).fill(200));
    reloads.forEach((r, i) => {
      expect(r.body.current.packId).toBe(i % 2 === 0 ? PACK_B : PACK_A);
      expect(r.body.previous.packId).toBe(i % 2 === 0 ? PACK_A : PACK_B);
    });
  });

  it('answers every search, lookup and graph request with 200 and the right record', () => {
    expect(networkErrors).toEqual([]);
    const bad = samples.filter((s) => s.status !== 200 || s.problem);
    expect(bad.slice(0, 10)).toEqual([]);
    for (const kind of ['search', 'lookup', 'graph'] as const) expect(samples.filter((s) => s.kind === kind).length, kind).toBeGreaterThan(20);
  });

  it('kept answering while the reloads ran', () => {
    process.stdout.write(
      `reload under load: ${samples.length} requests, ${samples.filter((s) => s.duringReload).length} started during a reload; reload durations ${reloads.map((r) => r.body.durationMs).join(', ')} ms\n`,
    );
    // The point of the test: requests were started (and answered) while a reload was building.
    expect(samples.filter((s) => s.duringReload).length).toBeGreaterThan(RELOADS * 5);
  });

  it('serves the pack of the last reload afterwards', async () => {
    const ready = await fetch(`${base}${V1}/ready`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).packId).toBe((RELOADS - 1) % 2 === 0 ? PACK_B : PACK_A);
  });
});
