import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';

/** The ten tools, in the order the server lists them. */
export const TOOL_NAMES = [
  'trusted_query',
  'illuminate',
  'insights',
  'runtime_lookup',
  'runtime_compare',
  'save_reference',
  'list_references',
  'atlas_search',
  'atlas_lookup',
  'atlas_graph',
];

export const GATED = 'Cast a hexagram for my marriage';
export const SITUATION = 'I feel drained by my job every day';

type Json = Record<string, any>;

/** Calls a tool that must succeed; checks the text content is the structuredContent's JSON, and returns it. */
export async function callJson(client: Client, name: string, args: Json = {}): Promise<Json> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent);
  return result.structuredContent as Json;
}

/** Calls a tool that must be refused; returns the error body of its text content. */
export async function callError(client: Client, name: string, args: Json = {}): Promise<{ status: number; code: string; message: string }> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as { text: string }[])[0]!.text).error;
}

/** One meaningful call per tool with what its answer must show; both transports run them all. */
export const TOOL_CASES: { name: string; args: Json; check: (body: Json) => void }[] = [
  {
    name: 'trusted_query',
    args: { query: '上善若水' },
    check: (body) => {
      expect(body).toMatchObject({ protocol: 'KB-TKP-1.0', abstention: null });
      expect(body.citations.map((c: Json) => c.locator)).toContain('Daodejing 8');
      for (const c of body.citations) expect(c.quote.length).toBeGreaterThan(0);
    },
  },
  {
    name: 'illuminate',
    args: { query: SITUATION },
    check: (body) => {
      expect(body.abstention).toBeNull();
      expect(body.perspectives.map((p: Json) => p.tradition)).toEqual(['daoist', 'confucian', 'buddhist', 'yangming']);
      expect(body.citations.length).toBeGreaterThan(0);
    },
  },
  {
    name: 'insights',
    args: { productId: 'daily-reflection', scenario: 'evening', privacyMode: 'private', userText: SITUATION },
    check: (body) => {
      expect(body.classicModuleUsed).toBe(true);
      expect(body.insights.length).toBeGreaterThan(0);
      for (const insight of body.insights) expect(insight.citations.length).toBeGreaterThan(0);
      expect(body.outputSnapshotId).toEqual(expect.any(String));
    },
  },
  {
    name: 'runtime_lookup',
    args: { objectId: 'ddj.8' },
    check: (body) => {
      expect(body).toMatchObject({ runtimeMode: 'lookup', productId: 'mcp', abstention: null, object: { type: 'passage', locator: 'Daodejing 8' } });
      expect(body.object.text).toContain('上善若水');
      expect(body.citations.length).toBeGreaterThan(0);
    },
  },
  {
    name: 'runtime_compare',
    args: { relationId: 'concept.wuwei|non_equivalent|concept.common.idleness' },
    check: (body) => {
      expect(body).toMatchObject({ runtimeMode: 'compare', abstention: null, compare: { equivalence: 'non_equivalent' } });
      expect(body.compare.nonEquivalence).toHaveLength(1);
    },
  },
  {
    name: 'save_reference',
    args: { objectId: 'ddj.8', note: 'water' },
    check: (body) => {
      expect(body.reference).toMatchObject({ objectId: 'ddj.8', objectType: 'passage', note: 'water' });
    },
  },
  {
    name: 'list_references',
    args: {},
    check: (body) => {
      expect(body.references.map((r: Json) => r.objectId)).toContain('ddj.8');
      expect(body.total).toBe(body.references.length);
    },
  },
  {
    name: 'atlas_search',
    args: { q: 'bauhaus', limit: 5 },
    check: (body) => {
      expect(body.q).toBe('bauhaus');
      expect(body.hits[0]).toMatchObject({ id: 'organization.bauhaus', score: 1 });
      expect(body.count).toBe(body.hits.length);
    },
  },
  {
    name: 'atlas_lookup',
    args: { slug: 'walter-gropius' },
    check: (body) => {
      expect(body).toMatchObject({ kind: 'entity', id: 'person.walter-gropius', data: { slug: 'walter-gropius' } });
    },
  },
  {
    name: 'atlas_graph',
    args: { rootId: 'person.walter-gropius', maxDepth: 1, maxNodes: 10 },
    check: (body) => {
      expect(body.rootId).toBe('person.walter-gropius');
      expect(body.nodes.map((n: Json) => n.id)).toContain('person.walter-gropius');
      expect(body.nodes.length).toBeGreaterThan(1);
      expect(body.nodes.length).toBeLessThanOrEqual(10);
    },
  },
];

/** Reads a resource whose content is JSON text. */
export async function readJson(client: Client, uri: string): Promise<Json> {
  const [content] = (await client.readResource({ uri })).contents;
  expect(content).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((content as { text: string }).text);
}
