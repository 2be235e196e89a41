import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db.js';
import { KeyRegistry } from '../../src/platform/keys.js';
import { tempDir } from '../helpers.js';
import { callJson, GATED, readJson, TOOL_CASES, TOOL_NAMES } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = tempDir('mcp-stdio-');
const keys = { alice: '', aliceId: '', revoked: '', atlasUser: '' };

/** Runs `fn` on a second connection to the test's database (the server process keeps its own). */
function withKeys<T>(fn: (registry: KeyRegistry) => T): T {
  const db = openDatabase(dataDir);
  try {
    return fn(new KeyRegistry(db));
  } finally {
    db.close();
  }
}

/** `npx tsx src/mcp/stdio.ts --key <key>` as a desktop client would start it, its stderr kept. */
function spawnServer(key: string) {
  const transport = new StdioClientTransport({
    command: 'npx',
    args: ['tsx', 'src/mcp/stdio.ts', '--key', key],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, PACKS_DIR: resolve(ROOT, 'packs'), NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  return { transport, stderr: () => stderr };
}

let alice: Client;
beforeAll(async () => {
  withKeys((registry) => {
    const created = registry.create('alice', 'classics', ['read']);
    keys.alice = created.key;
    keys.aliceId = created.record.id;
    const revoked = registry.create('mallory', 'classics', ['read']);
    registry.revoke(revoked.record.id);
    keys.revoked = revoked.key;
    keys.atlasUser = registry.create('alice', 'atlas', ['read']).key;
  });
  alice = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await alice.connect(spawnServer(keys.alice).transport);
});
afterAll(async () => {
  await alice?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('MCP over stdio (npm run mcp -- --key ...)', () => {
  it('refuses a wrong, a revoked and an atlas key before serving', async () => {
    await Promise.all(
      ['uk_000000000000_wrong', keys.revoked, keys.atlasUser].map(async (key) => {
        const { transport, stderr } = spawnServer(key);
        const client = new Client({ name: 'refused', version: '1.0.0' });
        await expect(client.connect(transport)).rejects.toThrow();
        expect(stderr()).toMatch(/refused: MCP needs a per-user classics key/);
      }),
    );
  });

  it('lists the ten tools and the resources', async () => {
    expect((await alice.listTools()).tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const { resources } = await alice.listResources();
    expect(resources.map((r) => r.uri)).toContain('classics://passage/Daodejing%208');
    expect((await readJson(alice, 'classics://passage/Daodejing%208')).text).toContain('上善若水');
  });

  it.each(TOOL_CASES)('calls $name', async ({ name, args, check }) => {
    check(await callJson(alice, name, args));
  });

  it('keeps the Gate and attributes writes to the key owner', async () => {
    const blocked = await callJson(alice, 'trusted_query', { query: GATED });
    expect(blocked.abstention).toMatchObject({ reason: 'GATE_BLOCKED', category: 'divination' });
    expect(blocked.citations).toEqual([]);
    const { references } = await callJson(alice, 'list_references');
    expect(references.every((r: { owner: string; updatedBy: string }) => r.owner === 'alice' && r.updatedBy === 'user:alice')).toBe(true);
  });

  it('stops serving a key revoked mid-session', async () => {
    withKeys((registry) => registry.revoke(keys.aliceId));
    const result = await alice.callTool({ name: 'runtime_lookup', arguments: { objectId: 'ddj.8' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/revoked keys are refused/);
    await expect(alice.readResource({ uri: 'classics://passage/Daodejing%208' })).rejects.toThrow(/per-user classics key/);
  });
});
