import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';

export const TOKENS = {
  classics: 'test-classics-token-0123456789',
  atlas: 'test-atlas-consumer-key-0123456789',
  atlasAdmin: 'test-atlas-admin-key-0123456789',
};

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

export function tempDir(prefix = 'svc-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
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
