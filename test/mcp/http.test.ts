import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auth, makeApp, TOKENS, type TestApp } from '../helpers.js';
import { callError, callJson, GATED, readJson, TOOL_CASES, TOOL_NAMES } from './helpers.js';

let t: TestApp;
let url: URL;
const keys = { alice: '', bob: '', aliceId: '', atlasUser: '', revoked: '' };
const clients: Client[] = [];

async function connect(token: string | undefined): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** connect() must fail with HTTP 401 and the JSON-RPC error body. */
async function refused(token: string | undefined) {
  const error = await connect(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StreamableHTTPError);
  expect((error as StreamableHTTPError).code).toBe(401);
  expect((error as Error).message).toMatch(/per-user classics key/);
}

const post = (token: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });

beforeAll(async () => {
  t = await makeApp();
  const registry = t.app.ctx.keys;
  const alice = registry.create('alice', 'classics', ['read']);
  keys.alice = alice.key;
  keys.aliceId = alice.record.id;
  keys.bob = registry.create('bob', 'classics', ['read']).key;
  keys.atlasUser = registry.create('alice', 'atlas', ['read']).key;
  const revoked = registry.create('mallory', 'classics', ['read']);
  registry.revoke(revoked.record.id);
  keys.revoked = revoked.key;
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  url = new URL('/mcp', address);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.close();
});

describe('MCP over Streamable HTTP at /mcp', () => {
  it('lists the ten tools with JSON input schemas taken from the REST request schemas', async () => {
    const client = await connect(keys.alice);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const schema = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema as Record<string, any>;
    expect(schema('trusted_query').required).toEqual(['query']);
    expect(schema('trusted_query').properties.query).toMatchObject({ type: 'string', minLength: 1, maxLength: 2000 });
    expect(schema('trusted_query').properties.expression_mode.default).toBe('conversation');
    expect(schema('runtime_lookup').required).toEqual(['objectId']);
    expect(schema('atlas_graph').properties.maxDepth).toMatchObject({ type: 'integer', minimum: 1, maximum: 5, default: 2 });
    expect(schema('save_reference').properties).not.toHaveProperty('owner');
    expect(schema('list_references').properties).toEqual({});
    expect(tools.find((tool) => tool.name === 'save_reference')!.annotations?.readOnlyHint).toBe(false);
  });

  it.each(TOOL_CASES)('calls $name', async ({ name, args, check }) => {
    const client = await connect(keys.alice);
    check(await callJson(client, name, args));
  });

  it('returns exactly the REST body: trusted_query equals POST /trusted-query but for the query id', async () => {
    const client = await connect(keys.alice);
    const viaMcp = await callJson(client, 'trusted_query', { query: '上善若水' });
    const viaRest = (await t.app.inject({ method: 'POST', url: '/api/classics/v1/trusted-query', headers: auth(TOKENS.classics), payload: { query: '上善若水' } })).json();
    expect({ ...viaMcp, query_id: 'x' }).toEqual({ ...viaRest, query_id: 'x' });
  });

  it('keeps the Gate: a divination request gets the abstention and no citations', async () => {
    const client = await connect(keys.alice);
    const body = await callJson(client, 'trusted_query', { query: GATED });
    expect(body.abstention).toMatchObject({ reason: 'GATE_BLOCKED', category: 'divination' });
    expect(body.claims).toEqual([]);
    expect(body.citations).toEqual([]);
    const runtime = await callJson(client, 'runtime_compare', { objectId: 'concept.wuwei', query: GATED });
    expect(runtime.abstention).toMatchObject({ reason: 'GATE_BLOCKED', category: 'divination' });
  });

  it("audits each trusted query as the key's owner", async () => {
    const client = await connect(keys.alice);
    const { query_id } = await callJson(client, 'trusted_query', { query: '学而时习之' });
    const audit = (await t.app.inject({ url: '/api/classics/v1/trusted-query/audit?limit=50', headers: auth(TOKENS.classics) })).json();
    expect(audit.events.find((e: { query_id: string }) => e.query_id === query_id)).toMatchObject({ actor: 'user:alice' });
  });

  it('counts atlas calls as usage under the key id, per endpoint', async () => {
    const client = await connect(keys.bob);
    const bobId = t.app.ctx.keys.list().find((k) => k.owner === 'bob')!.id;
    await callJson(client, 'atlas_search', { q: 'gropius' });
    await callJson(client, 'atlas_lookup', { id: 'person.walter-gropius' });
    expect((await callError(client, 'atlas_graph', { rootId: 'person.nobody-at-all' })).code).toBe('NOT_FOUND');
    // Counts reach the table on the usage timer (every 2 s), as REST counts do.
    await vi.waitFor(
      async () => {
        const usage = (await t.app.inject({ url: '/api/atlas/v1/admin/usage', headers: auth(TOKENS.atlasAdmin) })).json();
        const mine = usage.rows.filter((r: { keyId: string }) => r.keyId === bobId);
        expect(Object.fromEntries(mine.map((r: { endpoint: string; requests: number }) => [r.endpoint, r.requests]))).toEqual({ search: 1, lookup: 1, graph: 1 });
      },
      { timeout: 6_000, interval: 250 },
    );
  });

  it("keeps one user's references from another", async () => {
    const alice = await connect(keys.alice);
    const bob = await connect(keys.bob);
    const saved = await callJson(alice, 'save_reference', { objectId: 'concept.wuwei', note: 'for alice only' });
    expect(saved.reference).toMatchObject({ owner: 'alice', updatedBy: 'user:alice' });
    const bobs = await callJson(bob, 'list_references');
    expect(bobs.owner).toBe('bob');
    expect(bobs.references.map((r: { id: string }) => r.id)).not.toContain(saved.reference.id);
    const alices = await callJson(alice, 'list_references');
    expect(alices.references.map((r: { id: string }) => r.id)).toContain(saved.reference.id);
    expect(alices.references.every((r: { owner: string }) => r.owner === 'alice')).toBe(true);
  });

  it('answers a refused call with the REST error code and status', async () => {
    const client = await connect(keys.alice);
    expect(await callError(client, 'runtime_lookup', { objectId: 'concept.nothing-here' })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await callError(client, 'save_reference', { objectId: 'not.an.object' })).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    const invalid = await client.callTool({ name: 'atlas_lookup', arguments: { id: 'person.walter-gropius', slug: 'walter-gropius' } });
    expect(invalid.isError).toBe(true);
    expect(JSON.stringify(invalid.content)).toMatch(/exactly one of id or slug/);
  });

  it('lists and reads the sources and passages as resources', async () => {
    const client = await connect(keys.alice);
    const { resources } = await client.listResources();
    const sources = resources.filter((r) => r.uri.startsWith('classics://sources/'));
    const passages = resources.filter((r) => r.uri.startsWith('classics://passage/'));
    const registry = (await t.app.inject({ url: '/api/classics/v1/trusted-query/sources', headers: auth(TOKENS.classics) })).json();
    expect(sources.map((s) => s.name).sort()).toEqual(registry.sources.map((s: { source_id: string }) => s.source_id).sort());
    expect(passages.length).toBeGreaterThan(1000);
    expect(passages.map((p) => p.uri)).toContain('classics://passage/Daodejing%208');

    const read = (uri: string) => readJson(client, uri);
    expect(await read('classics://passage/Daodejing%208')).toMatchObject({ id: 'ddj.8', locator: 'Daodejing 8', packId: 'daodejing' });
    expect((await read('classics://passage/Daodejing%208')).text).toContain('上善若水');
    const yijing = passages.find((p) => p.name.startsWith('Yijing') && p.name.includes('('))!;
    expect((await read(yijing.uri)).locator).toBe(yijing.name);

    const source = await read(sources[0]!.uri);
    expect(source.source.passageCount).toBe(source.passages.length);
    expect((await read(source.passages[0].uri)).sourceId).toBe(source.source.id);
    await expect(client.readResource({ uri: 'classics://passage/Daodejing%20999' })).rejects.toThrow(/not found/i);
  });

  it('refuses a service token, atlas keys, a revoked key, a wrong key and no key with 401', async () => {
    for (const token of [TOKENS.classics, TOKENS.atlas, TOKENS.atlasAdmin, keys.atlasUser, keys.revoked, 'uk_000000000000_wrong', undefined]) await refused(token);
    const response = await post(TOKENS.classics, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32010, message: expect.stringMatching(/service tokens/) } });
  });

  it('is stateless: no session id, GET and DELETE answer 405', async () => {
    const init = await post(keys.alice, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect(init.headers.get('x-request-id')).toBeTruthy();
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method, headers: { authorization: `Bearer ${keys.alice}` } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});
