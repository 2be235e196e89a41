import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { packChecksum } from '../src/classics/packs.js';
import { loadConfig, type Config } from '../src/config.js';

export const TOKENS = {
  classics: 'test-classics-token-0123456789',
  atlas: 'test-atlas-consumer-key-0123456789',
  atlasAdmin: 'test-atlas-admin-key-0123456789',
};

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A fresh directory under the run's root, which the global setup removes when the suite ends (a compiled atlas alone is ~12 MB). */
export function tempDir(prefix = 'svc-test-'): string {
  return mkdtempSync(join(inject('tempRoot'), prefix));
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    dataDir: tempDir(),
    classicsTokens: [TOKENS.classics],
    atlasApiKeys: [TOKENS.atlas],
    atlasAdminKeys: [TOKENS.atlasAdmin],
    // Test files build apps in parallel; a blocked loop there is the suite, not an overload.
    maxEventLoopDelayMs: 0,
    ...overrides,
  };
}

/** Collects every log line the app writes, for assertions on what is (not) logged. */
export function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  close: () => Promise<void>;
}

export async function makeApp(overrides: Partial<Config> = {}, logStream?: Writable): Promise<TestApp> {
  const config = testConfig(overrides);
  const app = await buildApp(config, logStream ? { logStream } : {});
  await app.ready();
  return {
    app,
    config,
    close: async () => {
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export interface PinnedPack {
  id: string;
  version: string;
  sha256: string;
}

/**
 * A packs dir whose pack folders link to the real packs and whose classics releases are written
 * here, pinned to the checksums of those packs: tests of release states do not depend on the
 * state of packs/classics/releases. `packs` may alter the pins of one release (a bad checksum).
 */
export function linkedPacksDir(
  prefix: string,
  releases: { id: string; status: string; createdAt: string; criticalItems: string[]; packs?: (pinned: PinnedPack[]) => PinnedPack[] }[],
): { dir: string; releaseFile: (id: string) => string } {
  const real = resolve(import.meta.dirname, '../packs');
  const dir = tempDir(prefix);
  const classics = join(dir, 'classics');
  mkdirSync(join(classics, 'releases'), { recursive: true });
  symlinkSync(join(real, 'atlas'), join(dir, 'atlas'));
  const packIds = readdirSync(join(real, 'classics')).filter((d) => d !== 'releases' && statSync(join(real, 'classics', d)).isDirectory());
  const pinned = packIds.map((id) => {
    const src = join(real, 'classics', id);
    symlinkSync(src, join(classics, id));
    const files = readdirSync(src).filter((f) => f.endsWith('.json')).sort();
    const { version } = JSON.parse(readFileSync(join(src, 'pack.json'), 'utf8')) as { version: string };
    return { id, version, sha256: packChecksum(src, files) };
  });
  const releaseFile = (id: string) => join(classics, 'releases', `${id}.json`);
  for (const r of releases) {
    writeFileSync(
      releaseFile(r.id),
      JSON.stringify({ id: r.id, status: r.status, createdAt: r.createdAt, notes: `test release ${r.id}`, packs: r.packs ? r.packs(pinned) : pinned, criticalItems: r.criticalItems }),
    );
  }
  return { dir, releaseFile };
}
