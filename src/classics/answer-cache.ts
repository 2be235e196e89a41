import { LRUCache } from 'lru-cache';

/**
 * Answers computed from a loaded release, by request. The library never changes while it is
 * served and every answering step is a pure function of the request and the release, so a
 * repeated request (a product's daily question, a popular passage) is answered from here
 * instead of re-running retrieval; per-response fields (ids) are the caller's to set.
 * `max` 0 turns the cache off.
 */
export class AnswerCache {
  private readonly cache: LRUCache<string, object> | undefined;

  constructor(max: number) {
    this.cache = max > 0 ? new LRUCache<string, object>({ max }) : undefined;
  }

  /** The cached value for the key, or `compute()`'s (stored unless it throws); `hit` says which. */
  through<T extends object>(key: readonly unknown[], compute: () => T): { value: T; hit: boolean } {
    if (!this.cache) return { value: compute(), hit: false };
    const id = JSON.stringify(key);
    const known = this.cache.get(id) as T | undefined;
    if (known) return { value: known, hit: true };
    const value = compute();
    this.cache.set(id, value);
    return { value, hit: false };
  }

  get size(): number {
    return this.cache?.size ?? 0;
  }
}
