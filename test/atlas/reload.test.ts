import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AtlasStore } from '../../src/atlas/store.js';
import { openDatabase } from '../../src/platform/db.js';
import { auth, TOKENS } from '../helpers.js';
import { atlasApp, FIXTURE_ID, fixtureFiles, packsDir, writeFixtureFile } from './helpers.js';

const V1 = '/api/atlas/v1';
const admin = auth(TOKENS.atlasAdmin);
const consumer = auth(TOKENS.atlas);
type App = Awaited<ReturnType<typeof atlasApp>>;

let open: App[] = [];
const start = async (...args: Parameters<typeof atlasApp>) => {
  const t = await atlasApp(...args);
  open.push(t);
  return t;
};
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});

const reload = (t: App, payload?: object) =>
  t.app.inject({ method: 'POST', url: `${V1}/admin/reload`, headers: admin, ...(payload ? { payload } : {}) });
const version = async (t: App) => (await t.app.inject({ method: 'GET', url: `${V1}/stats`, headers: consumer })).json().version.version;

describe('hot reload', () => {
  it('swaps in a new version of the pack', async () => {
    const t = await start();
    const manifest = fixtureFiles().manifest;
    writeFixtureFile(t.packsDir, 'manifest.json', { ...manifest, version: '0.2.0' });
    const r = await reload(t);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      previous: { packId: FIXTURE_ID, version: '0.1.0', channel: 'test', packName: 'Design mini (test fixture)', releasedAt: '2025-01-15T00:00:00Z' },
      current: { packId: FIXTURE_ID, version: '0.2.0' },
    });
    expect(r.json().durationMs).toBeGreaterThanOrEqual(0);
    expect(await version(t)).toBe('0.2.0');
    expect((await t.app.inject({ method: 'GET', url: `${V1}/ready` })).json().version).toBe('0.2.0');
  });

  it('serves what the new pack holds', async () => {
    const t = await start();
    const files = fixtureFiles();
    files.entities.push({ id: 'person.eileen-gray', kind: 'person', slug: 'eileen-gray', displayName: 'Eileen Gray', aliases: [], description: 'Irish designer.', visibility: 'public', reviewState: 'reviewed' });
    const search = () => t.app.inject({ method: 'POST', url: `${V1}/search`, headers: consumer, payload: { q: 'Eileen Gray' } });
    expect((await search()).json().hits[0]?.id).not.toBe('person.eileen-gray');
    writeFixtureFile(t.packsDir, 'entities.json', files.entities);
    expect((await reload(t, {})).statusCode).toBe(200);
    expect((await search()).json().hits[0]).toMatchObject({ id: 'person.eileen-gray', score: 1 });
  });

  it('loads another pack by id, then reloads that one by default', async () => {
    const t = await start({ packsDir: packsDir({ 'synthetic-70': 70 }) });
    const r = await reload(t, { packId: 'synthetic-70' });
    expect(r.statusCode).toBe(200);
    expect(r.json().current).toMatchObject({ packId: 'synthetic-70', channel: 'synthetic' });
    expect((await t.app.inject({ method: 'GET', url: `${V1}/stats`, headers: consumer })).json().manifest.governance.totalEntities).toBe(70);
    expect((await reload(t)).json()).toMatchObject({ previous: { packId: 'synthetic-70' }, current: { packId: 'synthetic-70' } });
  });

  it('answers 404 for a pack that does not exist and 400 for a malformed id', async () => {
    const t = await start();
    const r = await reload(t, { packId: 'no-such-pack' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'no atlas pack named "no-such-pack"' } });
    expect((await reload(t, { packId: '../classics' })).statusCode).toBe(400);
    expect(await version(t)).toBe('0.1.0');
  });

  it('refuses an invalid pack with 422 PACK_INVALID listing the problems, and keeps serving the old one', async () => {
    const t = await start();
    const files = fixtureFiles();
    files.relationships[0].confidence = 1.5;
    files.entities[2].kind = 'robot';
    writeFixtureFile(t.packsDir, 'relationships.json', files.relationships);
    writeFixtureFile(t.packsDir, 'entities.json', files.entities);
    writeFixtureFile(t.packsDir, 'manifest.json', { ...files.manifest, version: '9.9.9' });
    const r = await reload(t);
    expect(r.statusCode).toBe(422);
    const error = r.json().error;
    expect(error.code).toBe('PACK_INVALID');
    expect(error.message).toBe('pack "design-mini" failed validation with 2 problem(s); pack "design-mini" 0.1.0 keeps serving');
    expect(error.details).toEqual(expect.arrayContaining([expect.stringMatching(/^relationships\.json\[0\]\.confidence:/), expect.stringMatching(/^entities\.json\[2\]\.kind:/)]));
    expect(await version(t)).toBe('0.1.0');
    expect((await t.app.inject({ method: 'GET', url: `${V1}/ready` })).statusCode).toBe(200);
    const search = await t.app.inject({ method: 'POST', url: `${V1}/search`, headers: consumer, payload: { q: 'Louis Sullivan' } });
    expect(search.json().hits[0]).toMatchObject({ id: 'person.louis-sullivan', score: 1 });
  });

  it('refuses a pack whose files are not JSON', async () => {
    const t = await start();
    writeFileSync(join(t.packsDir, 'atlas', FIXTURE_ID, 'evidence.json'), '{"broken": ');
    const r = await reload(t);
    expect(r.statusCode).toBe(422);
    expect(r.json().error.details).toEqual([expect.stringMatching(/^evidence\.json: not valid JSON/)]);
  });

  it('answers a second reload while one runs with 409 CONFLICT', async () => {
    const t = await start({ packsDir: packsDir({ 'synthetic-2000': 2000 }) });
    const [a, b] = await Promise.all([reload(t, { packId: 'synthetic-2000' }), reload(t, { packId: 'synthetic-2000' })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json()).toEqual({ error: { code: 'CONFLICT', message: 'a reload is already running; try again when it has finished' } });
    expect((await reload(t)).statusCode).toBe(200);
  });

  it('keeps answering requests while a reload builds, none of them failing', async () => {
    const t = await start({ packsDir: packsDir({ 'synthetic-4000': 4000 }) });
    let reloadDone = false;
    const reloading = reload(t, { packId: 'synthetic-4000' }).then((r) => {
      reloadDone = true;
      return r;
    });
    const answeredDuringReload: boolean[] = [];
    const requests: Promise<number>[] = [];
    // Keep traffic going until the reload has finished.
    while (!reloadDone) {
      const batch = [
        t.app.inject({ method: 'POST', url: `${V1}/search`, headers: consumer, payload: { q: 'chair' } }),
        t.app.inject({ method: 'POST', url: `${V1}/graph`, headers: consumer, payload: { rootId: 'organization.bauhaus' } }),
        t.app.inject({ method: 'GET', url: `${V1}/stats`, headers: consumer }),
      ].map((p) =>
        p.then((r) => {
          answeredDuringReload.push(!reloadDone);
          return r.statusCode;
        }),
      );
      requests.push(...batch);
      await Promise.all(batch);
    }
    const r = await reloading;
    expect(r.statusCode).toBe(200);
    const statuses = await Promise.all(requests);
    // Requests answered while the reload ran are what this test is about: there must be some.
    expect(answeredDuringReload.filter(Boolean).length).toBeGreaterThan(3);
    // Graph requests for the fixture's root answer 200 on the old pack and 404 on the new one; nothing else.
    expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(statuses.length / 2);
  });

  it('is not ready while the first load runs, and says so', async () => {
    const dir = packsDir();
    const store = new AtlasStore(dir, FIXTURE_ID);
    expect(store.readiness()).toEqual({ ok: false, reason: 'the atlas pack has not been loaded yet' });
    const loading = store.reload();
    expect(store.readiness()).toEqual({ ok: false, reason: 'the atlas pack "design-mini" is still loading' });
    await loading;
    expect(store.readiness()).toEqual({ ok: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a request keeps the pack it started with', async () => {
    const dir = packsDir({ 'synthetic-70': 70 });
    const store = new AtlasStore(dir, FIXTURE_ID);
    await store.reload();
    const before = store.current!;
    await store.reload('synthetic-70');
    expect(store.current).not.toBe(before);
    expect(before.pack.version.packId).toBe(FIXTURE_ID);
    expect(before.search.search({ q: 'Gropius', limit: 1 })[0]!.id).toBe('person.walter-gropius');
    expect(store.current!.search.search({ q: 'Gropius', limit: 1 })).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('start-up without a servable pack', () => {
  it('starts anyway: atlas ready is 503 with the reason, the rest of the server answers, and a reload fixes it', async () => {
    const t = await start({ atlasPackId: 'missing-pack' });
    const ready = await t.app.inject({ method: 'GET', url: `${V1}/ready` });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ error: { code: 'NOT_READY', message: 'no atlas pack named "missing-pack"' } });
    const stats = await t.app.inject({ method: 'GET', url: `${V1}/stats`, headers: consumer });
    expect(stats.statusCode).toBe(503);
    expect(stats.json().error.code).toBe('NOT_READY');
    expect((await t.app.inject({ method: 'GET', url: '/api/classics/v1/openapi.json' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${V1}/admin/usage`, headers: admin })).statusCode).toBe(200);

    const fixed = await reload(t, { packId: FIXTURE_ID });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().previous).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: `${V1}/ready` })).statusCode).toBe(200);
  });

  it('reports validation problems of the configured pack in ready', async () => {
    const dir = packsDir();
    const files = fixtureFiles();
    files.relationships[1].confidence = 7;
    writeFileSync(join(dir, 'atlas', FIXTURE_ID, 'relationships.json'), JSON.stringify(files.relationships));
    const t = await start({ packsDir: dir });
    const ready = await t.app.inject({ method: 'GET', url: `${V1}/ready` });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error.message).toMatch(/^pack "design-mini" failed validation with 1 problem\(s\): relationships\.json\[1\]\.confidence:/);
  });
});

describe('usage survives close', () => {
  it('flushes buffered counts when the app closes', async () => {
    const t = await atlasApp();
    for (let i = 0; i < 4; i++) await t.app.inject({ method: 'GET', url: `${V1}/lookup?slug=weimar`, headers: consumer });
    await t.app.close();
    const db = openDatabase(t.config.dataDir);
    expect(db.prepare(`SELECT SUM(requests) FROM atlas_usage WHERE endpoint = 'lookup'`).pluck().get()).toBe(4);
    db.close();
    rmSync(t.config.dataDir, { recursive: true, force: true });
    rmSync(t.packsDir, { recursive: true, force: true });
  });
});
