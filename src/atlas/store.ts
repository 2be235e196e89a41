/**
 * Holds the pack being served together with its search index and graph adjacency.
 *
 * A reload reads and validates a pack, builds the new indexes (the search index in chunks that
 * yield to the event loop) into a fresh, immutable Atlas object, and only then swaps one
 * reference. A request reads `store.current` once and keeps that object, so requests in flight
 * finish on the pack they started with and no request ever sees a half-built state. A pack that
 * fails validation is refused and the old one keeps serving. One reload at a time.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GraphIndex } from './graph.js';
import { openPack, type Opened, type Prebuilt } from './compiled.js';
import type { Pack, PackVersion } from './pack.js';
import { SearchIndex } from './search.js';

export interface Atlas {
  pack: Pack;
  search: SearchIndex;
  graph: GraphIndex;
  loadedAt: string;
}

export class PackInvalidError extends Error {
  constructor(
    public readonly packId: string,
    public readonly errors: string[],
  ) {
    super(`pack "${packId}" failed validation with ${errors.length} problem(s)`);
    this.name = 'PackInvalidError';
  }
}

export class PackNotFoundError extends Error {
  constructor(public readonly packId: string) {
    super(`no atlas pack named "${packId}"`);
    this.name = 'PackNotFoundError';
  }
}

export class ReloadInProgressError extends Error {
  constructor() {
    super('a reload is already running; try again when it has finished');
    this.name = 'ReloadInProgressError';
  }
}

export interface ReloadResult {
  previous: PackVersion | null;
  current: PackVersion;
  durationMs: number;
  /** Whether the pack's compile was used (see compiled.ts); for the log, not the API. */
  opened: Opened;
}

/** Builds the served object for a validated pack, opening the indexes of its compile when given. */
export async function buildAtlas(pack: Pack, options: { searchCacheEntries?: number } = {}, prebuilt?: Prebuilt): Promise<Atlas> {
  const search = await SearchIndex.build(pack.entities, options, prebuilt?.search);
  const graph = prebuilt ? GraphIndex.open(pack.entities, prebuilt.adjacency) : await GraphIndex.build(pack.entities, pack.relationships.values());
  return Object.freeze({ pack, search, graph, loadedAt: new Date().toISOString() });
}

export class AtlasStore {
  private served: Atlas | undefined;
  /** The pack id being loaded, while a reload runs. */
  private loading: string | undefined;
  private packId: string;
  /** Why no pack is being served (only meaningful while current is undefined). */
  private failure = 'the atlas pack has not been loaded yet';

  constructor(
    private readonly packsDir: string,
    packId: string,
    private readonly options: { searchCacheEntries?: number } = {},
  ) {
    this.packId = packId;
  }

  get current(): Atlas | undefined {
    return this.served;
  }

  /** Readiness: ok when a pack is being served, otherwise the reason it is not. */
  readiness(): { ok: boolean; reason?: string } {
    if (this.served) return { ok: true };
    return { ok: false, reason: this.loading ? `the atlas pack "${this.loading}" is still loading` : this.failure };
  }

  /**
   * Loads packs/atlas/<packId> (default: the pack currently configured) and swaps it in.
   * Throws ReloadInProgressError, PackNotFoundError or PackInvalidError; on any throw the
   * previously served pack stays in place.
   */
  async reload(packId: string = this.packId): Promise<ReloadResult> {
    if (this.loading !== undefined) throw new ReloadInProgressError();
    this.loading = packId;
    const started = performance.now();
    try {
      const dir = join(this.packsDir, 'atlas', packId);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new PackNotFoundError(packId);
      const { result, prebuilt, opened } = await openPack(dir, packId);
      if (!result.ok) throw new PackInvalidError(packId, result.errors);
      const next = await buildAtlas(result.pack, this.options, prebuilt);
      const previous = this.served?.pack.version ?? null;
      this.served = next;
      this.packId = packId;
      return { previous, current: next.pack.version, durationMs: Math.round(performance.now() - started), opened };
    } catch (error) {
      if (!this.served) {
        this.failure =
          error instanceof PackInvalidError
            ? `${error.message}: ${error.errors.slice(0, 5).join('; ')}`
            : error instanceof Error
              ? error.message
              : String(error);
      }
      throw error;
    } finally {
      this.loading = undefined;
    }
  }
}
