import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packChecksum } from '../../../src/classics/packs.js';
import { auth, makeApp, tempDir, TOKENS, type TestApp } from '../../helpers.js';

const REAL_PACKS = resolve(import.meta.dirname, '../../../packs');

/** Releases of the test packs dir; the newest released one (2026.11.1) is served. */
export const RELEASES = {
  withdrawn: '2026.09.1',
  older: '2026.10.1',
  served: '2026.11.1',
  candidate: '2026.12.1',
};

/**
 * A packs dir whose pack folders link to the real packs and whose releases are written here with
 * the checksums of those packs, so that release states can be tested on several releases.
 */
function testPacksDir(): { dir: string; releaseFile: (id: string) => string } {
  const dir = tempDir('runtime-packs-');
  const classics = join(dir, 'classics');
  mkdirSync(join(classics, 'releases'), { recursive: true });
  symlinkSync(join(REAL_PACKS, 'atlas'), join(dir, 'atlas'));
  const packs = readdirSync(join(REAL_PACKS, 'classics')).filter((d) => d !== 'releases' && statSync(join(REAL_PACKS, 'classics', d)).isDirectory());
  const pinned = packs.map((id) => {
    const src = join(REAL_PACKS, 'classics', id);
    symlinkSync(src, join(classics, id));
    const files = readdirSync(src).filter((f) => f.endsWith('.json')).sort();
    const { version } = JSON.parse(readFileSync(join(src, 'pack.json'), 'utf8')) as { version: string };
    return { id, version, sha256: packChecksum(src, files) };
  });
  const releaseFile = (id: string) => join(classics, 'releases', `${id}.json`);
  const write = (id: string, status: string, createdAt: string) =>
    writeFileSync(releaseFile(id), JSON.stringify({ id, status, createdAt, notes: `test release ${id}`, packs: pinned, criticalItems: ['gate-self-test'] }));
  write(RELEASES.withdrawn, 'withdrawn', '2026-09-01T00:00:00Z');
  write(RELEASES.older, 'released', '2026-10-01T00:00:00Z');
  write(RELEASES.served, 'released', '2026-11-01T00:00:00Z');
  write(RELEASES.candidate, 'candidate', '2026-12-01T00:00:00Z');
  return { dir, releaseFile };
}

export interface RuntimeTestApp extends TestApp {
  post: (url: string, payload: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;
  get: (url: string, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;
  releaseFile: (id: string) => string;
}

export const service = auth(TOKENS.classics);

/** An app on the test packs dir, with helpers that call it with the service token (or given headers). */
export async function makeRuntimeApp(): Promise<RuntimeTestApp> {
  const packs = testPacksDir();
  const t = await makeApp({ packsDir: packs.dir });
  return {
    ...t,
    releaseFile: packs.releaseFile,
    close: async () => {
      await t.close();
      rmSync(packs.dir, { recursive: true, force: true });
    },
    post: async (url, payload, headers = service) => {
      const r = await t.app.inject({ method: 'POST', url, headers, payload: payload as object });
      return { status: r.statusCode, body: r.json() };
    },
    get: async (url, headers = service) => {
      const r = await t.app.inject({ method: 'GET', url, headers });
      return { status: r.statusCode, body: r.json() };
    },
  };
}

export const RUNTIME = '/api/classics/v1/runtime';
