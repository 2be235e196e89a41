/**
 * Writes the served contracts to openapi/classics.json and openapi/atlas.json. `npm test` fails
 * when these files and the served contracts differ; run `npm run openapi` after a schema change.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

export const CONTRACT_FILES = {
  classics: { url: '/api/classics/v1/openapi.json', file: 'openapi/classics.json' },
  atlas: { url: '/api/atlas/v1/openapi.json', file: 'openapi/atlas.json' },
} as const;

export const serialize = (document: unknown) => JSON.stringify(document, null, 2) + '\n';

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'openapi-'));
  const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), dataDir, classicsTokens: ['x'.repeat(16)], atlasApiKeys: ['y'.repeat(16)], atlasAdminKeys: ['z'.repeat(16)] };
  const app = await buildApp(config);
  mkdirSync('openapi', { recursive: true });
  for (const { url, file } of Object.values(CONTRACT_FILES)) {
    const response = await app.inject({ method: 'GET', url });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
    writeFileSync(file, serialize(response.json()));
    process.stdout.write(`wrote ${file}\n`);
  }
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
