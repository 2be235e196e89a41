import { releaseStatus } from '../governance/evolution/releases.js';
import { ServiceError } from '../platform/errors.js';
import type { LedgerStore } from '../platform/ledger.js';
import type { Library } from './library.js';

export const PROTOCOL_TKP = 'KB-TKP-1.0' as const;

/** GET /packs: the packs of the served release with what each holds. */
export function packRegistry(lib: Library) {
  const k = lib.knowledge;
  const packs = k.packs.map((p) => {
    const id = p.manifest.id;
    return {
      id,
      version: p.manifest.version,
      title: p.manifest.title,
      title_zh: p.manifest.title_zh,
      kind: p.manifest.kind,
      traditions: p.manifest.traditions,
      description: p.manifest.description,
      sha256: p.sha256,
      sourceIds: p.manifest.sources.map((s) => s.id),
      counts: {
        passages: k.passages.filter((x) => x.packId === id).length,
        claims: k.claims.filter((x) => x.packId === id).length,
        ...(p.manifest.kind === 'cross'
          ? { concepts: k.concepts.length, misreadings: k.misreadings.length, situations: k.situations.length, conflicts: k.conflicts.length, gateFixtures: k.gateFixtures.length }
          : {}),
      },
    };
  });
  return { releaseId: lib.releaseId, count: packs.length, packs };
}

/** A release manifest with its current status: withdraw and supersede are ledger records, never file edits. */
export function releaseById(lib: Library, ledger: LedgerStore, id: string) {
  const release = lib.knowledge.releaseById.get(id);
  if (!release) throw new ServiceError(404, 'NOT_FOUND', `no release ${id}`);
  return { ...release, status: releaseStatus(ledger, release), current: release.id === lib.releaseId };
}

/** GET /trusted-query/sources: the source registry, grouped by source_grade. */
export function sourceRegistry(lib: Library) {
  const k = lib.knowledge;
  const sources = [...k.sources.values()]
    .sort((a, b) => a.source_grade.localeCompare(b.source_grade) || a.id.localeCompare(b.id))
    .map((s) => ({
      source_id: s.id,
      pack_id: s.packId,
      title: s.title,
      title_en: s.title_en,
      tradition: s.tradition,
      edition: s.edition,
      source_grade: s.source_grade,
      license: s.license,
      passages: k.passages.filter((p) => p.sourceId === s.id).length,
    }));
  const by_grade: Record<string, string[]> = { A: [], B: [], C: [] };
  for (const s of sources) by_grade[s.source_grade]!.push(s.source_id);
  return { protocol: PROTOCOL_TKP, sources, count: sources.length, by_grade };
}

/** The release a read is pinned to: only the served release's content is available. */
export function requireServedRelease(lib: Library, releaseId: string | undefined) {
  if (releaseId === undefined || releaseId === lib.releaseId) return lib.releaseId;
  if (!lib.knowledge.releaseById.has(releaseId)) throw new ServiceError(404, 'NOT_FOUND', `no release ${releaseId}`);
  throw new ServiceError(404, 'NOT_FOUND', `release ${releaseId} is not served; the served release is ${lib.releaseId}`);
}
