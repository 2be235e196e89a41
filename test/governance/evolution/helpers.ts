import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packChecksum } from '../../../src/classics/packs.js';
import { auth, makeApp, tempDir, TOKENS, type TestApp } from '../../helpers.js';

const REAL_PACKS = resolve(import.meta.dirname, '../../../packs');
export const CRITICAL = ['gate-self-test', 'citation-validation', 'eval-answerable', 'eval-unanswerable'];

/** Releases of the test packs dir, oldest first; the newest released one (2026.11.1) is served. */
export const RELEASES = {
  withdrawn: '2026.09.1',
  older: '2026.10.1',
  served: '2026.11.1',
  badChecksum: '2026.12.1',
};

/**
 * A packs dir whose pack folders link to the real packs and whose releases are written here with
 * the checksums of those packs: the tests do not depend on the state of packs/classics/releases.
 */
function testPacksDir(): string {
  const dir = tempDir('evolution-packs-');
  const classics = join(dir, 'classics');
  mkdirSync(join(classics, 'releases'), { recursive: true });
  symlinkSync(join(REAL_PACKS, 'atlas'), join(dir, 'atlas'));
  const packs = readdirSync(join(REAL_PACKS, 'classics')).filter((d) => d !== 'releases' && statSync(join(REAL_PACKS, 'classics', d)).isDirectory());
  const pinned = packs.map((id) => {
    const src = join(REAL_PACKS, 'classics', id);
    symlinkSync(src, join(classics, id));
    const files = readdirSync(src).filter((f) => f.endsWith('.json')).sort();
    const { version } = JSON.parse(readFileSync(join(src, 'pack.json'), 'utf8')) as { version: string };
    return { id, version, sha256: packChecksum(src, files) };
  });
  const write = (id: string, status: string, createdAt: string, packsOf = pinned) =>
    writeFileSync(join(classics, 'releases', `${id}.json`), JSON.stringify({ id, status, createdAt, notes: `test release ${id}`, packs: packsOf, criticalItems: CRITICAL }));
  write(RELEASES.withdrawn, 'withdrawn', '2026-09-01T00:00:00Z');
  write(RELEASES.older, 'released', '2026-10-01T00:00:00Z');
  write(RELEASES.served, 'released', '2026-11-01T00:00:00Z');
  write(RELEASES.badChecksum, 'candidate', '2026-12-01T00:00:00Z', pinned.map((p, i) => (i === 0 ? { ...p, sha256: '0'.repeat(64) } : p)));
  return dir;
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
