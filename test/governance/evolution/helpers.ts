import { rmSync } from 'node:fs';
import { auth, linkedPacksDir, makeApp, TOKENS, type TestApp } from '../../helpers.js';

export const CRITICAL = ['gate-self-test', 'citation-validation', 'eval-answerable', 'eval-unanswerable'];

/** Releases of the test packs dir, oldest first; the newest released one (2026.11.1) is served. */
export const RELEASES = {
  withdrawn: '2026.09.1',
  older: '2026.10.1',
  served: '2026.11.1',
  badChecksum: '2026.12.1',
};

/** A packs dir linked to the real packs, with releases of every state plus one with a bad checksum. */
function testPacksDir(): string {
  return linkedPacksDir('evolution-packs-', [
    { id: RELEASES.withdrawn, status: 'withdrawn', createdAt: '2026-09-01T00:00:00Z', criticalItems: CRITICAL },
    { id: RELEASES.older, status: 'released', createdAt: '2026-10-01T00:00:00Z', criticalItems: CRITICAL },
    { id: RELEASES.served, status: 'released', createdAt: '2026-11-01T00:00:00Z', criticalItems: CRITICAL },
    {
      id: RELEASES.badChecksum,
      status: 'candidate',
      createdAt: '2026-12-01T00:00:00Z',
      criticalItems: CRITICAL,
      packs: (pinned) => pinned.map((p, i) => (i === 0 ? { ...p, sha256: '0'.repeat(64) } : p)),
    },
  ]).dir;
}

export interface EvolutionTestApp extends TestApp {
  post: (url: string, payload: unknown, actor?: string) => Promise<{ status: number; body: any }>;
  get: (url: string) => Promise<{ status: number; body: any; raw: string }>;
  rows: () => number;
}

export async function makeEvolutionApp(): Promise<EvolutionTestApp> {
  const packsDir = testPacksDir();
  const t = await makeApp({ packsDir });
  const headers = auth(TOKENS.classics);
  return {
    ...t,
    close: async () => {
      await t.close();
      rmSync(packsDir, { recursive: true, force: true });
    },
    post: async (url, payload, actor) => {
      const r = await t.app.inject({ method: 'POST', url: `/api/classics/v1${url}`, headers: { ...headers, ...(actor !== undefined ? { 'x-actor': actor } : {}) }, payload: payload as object });
      return { status: r.statusCode, body: r.json() };
    },
    get: async (url) => {
      const r = await t.app.inject({ method: 'GET', url: `/api/classics/v1${url}`, headers });
      return { status: r.statusCode, body: r.json(), raw: r.body };
    },
    rows: () => t.app.ctx.ledger.count(),
  };
}

/** Real knowledge of the packs: a passage with a verbatim quote, and targets of each kind. */
export const K = {
  passageId: 'ddj.8',
  quote: '上善若水',
  claimId: 'claim.ddj.1.1',
  conceptId: 'concept.wuwei',
  relationId: 'concept.wuwei:similar:concept.ziran',
};

export const candidateBody = (over: Record<string, unknown> = {}) => ({
  targetKind: 'concept',
  targetId: K.conceptId,
  change: { field: 'definition_en', to: 'Action without forcing.' },
  rationale: 'The gloss should stress non-coercion.',
  evidence: [{ passageId: K.passageId, quote: K.quote }],
  ...over,
});
