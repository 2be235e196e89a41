import { KIND } from '../../../src/governance/kinds.js';
import { auth, TOKENS, type TestApp } from '../../helpers.js';

export const V1 = '/api/classics/v1';

/** HTTP helpers over one test app: status and parsed body, with an optional X-Actor. */
export function client(t: TestApp) {
  const headers = (actor?: string) => ({ ...auth(TOKENS.classics), ...(actor === undefined ? {} : { 'x-actor': actor }) });
  const send = async (method: 'GET' | 'POST', url: string, payload?: unknown, actor?: string) => {
    const r = await t.app.inject({ method, url: `${V1}${url}`, headers: headers(actor), ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: r.statusCode, body: r.json() };
  };
  return {
    post: (url: string, payload: unknown = {}, actor?: string) => send('POST', url, payload, actor),
    get: (url: string) => send('GET', url),
    /** Number of ledger rows: a refused call must leave it unchanged. */
    rows: () => t.app.ctx.ledger.count(),
    /** Every row's seq and hash, to show that earlier rows are never changed or removed. */
    chain: () => t.app.ctx.db.prepare('SELECT seq, kind, record_id, version, hash FROM ledger ORDER BY seq').all() as { seq: number; kind: string; record_id: string; version: number; hash: string }[],
  };
}

/** An approval record as the evolution-governance approvals endpoint writes it. */
export function appendApproval(t: TestApp, recordId: string, targetId: string, actor = 'human:ann') {
  t.app.ctx.ledger.append({
    kind: KIND.approval,
    recordId,
    actor,
    body: { targetKind: 'concept', targetId, revision: 'x', candidateId: 'c1', approvedBy: actor },
  });
}

/** X-Actor values a human-only rule must refuse (undefined: the header is missing). */
export const NOT_HUMAN: [string, string | undefined][] = [
  ['ai', 'ai'],
  ['ai:model', 'ai:model'],
  ['AI (any case)', 'AI'],
  ['system', 'system'],
  ['system:job', 'system:job'],
  ['malformed (robot:x)', 'robot:x'],
  ['malformed (human without id)', 'human'],
  ['missing', undefined],
];
export const HUMAN: [string, string][] = [
  ['human:x', 'human:x'],
  ['editorial:x', 'editorial:x'],
];
