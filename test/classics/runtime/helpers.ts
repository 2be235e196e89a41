import { rmSync } from 'node:fs';
import { auth, linkedPacksDir, makeApp, TOKENS, type TestApp } from '../../helpers.js';


/** Releases of the test packs dir; the newest released one (2026.11.1) is served. */
export const RELEASES = {
  withdrawn: '2026.09.1',
  older: '2026.10.1',
  served: '2026.11.1',
  candidate: '2026.12.1',
};

/** A packs dir linked to the real packs, with four releases of the states the tests need. */
function testPacksDir(): { dir: string; releaseFile: (id: string) => string } {
  const critical = ['gate-self-test'];
  return linkedPacksDir('runtime-packs-', [
    { id: RELEASES.withdrawn, status: 'withdrawn', createdAt: '2026-09-01T00:00:00Z', criticalItems: critical },
    { id: RELEASES.older, status: 'released', createdAt: '2026-10-01T00:00:00Z', criticalItems: critical },
    { id: RELEASES.served, status: 'released', createdAt: '2026-11-01T00:00:00Z', criticalItems: critical },
    { id: RELEASES.candidate, status: 'candidate', createdAt: '2026-12-01T00:00:00Z', criticalItems: critical },
  ]);
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
