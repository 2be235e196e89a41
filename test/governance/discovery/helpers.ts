import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auth, TOKENS, type TestApp } from '../../helpers.js';

export const D = '/api/classics/v1/discovery';
export const OBSERVATIONS = 'discovery-observations.jsonl';

/** The eight X-Actor cases the human rules are tested against: header value (undefined = not sent) and whether it counts as human. */
export const ACTOR_TABLE: [label: string, header: string | undefined, human: boolean][] = [
  ['human:x', 'human:ann', true],
  ['editorial:x', 'editorial:desk-1', true],
  ['ai', 'ai', false],
  ['ai:model', 'ai:model-7', false],
  ['system', 'system', false],
  ['system:job', 'system:nightly-job', false],
  ['malformed', 'robot:x', false],
  ['missing', undefined, false],
];

export function client(t: TestApp) {
  const headers = (actor?: string) => ({ ...auth(TOKENS.classics), ...(actor !== undefined ? { 'x-actor': actor } : {}) });
  return {
    async post(path: string, payload: unknown, actor?: string) {
      const r = await t.app.inject({ method: 'POST', url: `${D}${path}`, headers: headers(actor), payload: payload as object });
      return { status: r.statusCode, body: r.json() };
    },
    async get(path: string) {
      const r = await t.app.inject({ method: 'GET', url: `${D}${path}`, headers: headers() });
      return { status: r.statusCode, body: r.json() };
    },
  };
}

export function observationLines(dataDir: string): Record<string, unknown>[] {
  const file = join(dataDir, OBSERVATIONS);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Everything on the ledger, by kind: what a refused call must leave untouched. */
export const ledgerCount = (t: TestApp) => t.app.ctx.ledger.count();
