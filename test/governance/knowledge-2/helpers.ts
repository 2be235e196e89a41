import { expect } from 'vitest';
import type { TestApp } from '../../helpers.js';
import { auth, TOKENS } from '../../helpers.js';

export const V1 = '/api/classics/v1';

/** The X-Actor values every human-only rule is driven with: [header (undefined = missing), allowed]. */
export const ACTOR_TABLE: [string | undefined, boolean][] = [
  ['human:x', true],
  ['editorial:x', true],
  ['ai', false],
  ['ai:model', false],
  ['system', false],
  ['system:job', false],
  ['robot:x', false],
  ['human', false],
  [undefined, false],
];

const headersFor = (actor?: string) => ({ ...auth(TOKENS.classics), ...(actor === undefined ? {} : { 'x-actor': actor }) });

export async function post(t: TestApp, url: string, payload: unknown = {}, actor?: string) {
  const r = await t.app.inject({ method: 'POST', url: `${V1}${url}`, headers: headersFor(actor), payload: payload as object });
  return { status: r.statusCode, body: r.json() };
}

export async function get(t: TestApp, url: string) {
  const r = await t.app.inject({ method: 'GET', url: `${V1}${url}`, headers: headersFor() });
  return { status: r.statusCode, body: r.json() };
}

/** Ledger rows in total: a refused call must leave it unchanged. */
export const rows = (t: TestApp) => t.app.ctx.ledger.count();

/** Every stored body, as text, for searching the ledger for a marker. */
export const allBodies = (t: TestApp) =>
  (t.app.ctx.db.prepare('SELECT body FROM ledger').all() as { body: string }[]).map((r) => r.body).join('\n');

/** Runs a call that must be refused: the status and code, and no ledger row written. */
export async function expectRefused(t: TestApp, call: () => ReturnType<typeof post>, status: number, code: string) {
  const before = rows(t);
  const r = await call();
  expect({ status: r.status, code: r.body.error?.code }, JSON.stringify(r.body)).toEqual({ status, code });
  expect(rows(t), 'a refused call wrote to the ledger').toBe(before);
  return r;
}
