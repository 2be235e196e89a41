import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './db.js';

export type KeyService = 'classics' | 'atlas' | 'atlas-admin';

export interface ApiKeyRecord {
  id: string;
  owner: string;
  service: KeyService;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const PREFIX: Record<KeyService, string> = { classics: 'uk', atlas: 'uak', 'atlas-admin': 'uaa' };

/**
 * Per-user keys. Only the SHA-256 of a key is stored; the key itself is shown once, at creation.
 * The key carries its id (`<prefix>_<id>_<secret>`) so that logs and usage can name it safely.
 */
export class KeyRegistry {
  constructor(private readonly db: Db) {}

  create(owner: string, service: KeyService, scopes: string[]): { key: string; record: ApiKeyRecord } {
    if (!/^[\w.@:-]{1,128}$/.test(owner)) throw new Error('owner: 1-128 characters of letters, digits, . @ : _ -');
    const id = randomBytes(6).toString('hex');
    const key = `${PREFIX[service]}_${id}_${randomBytes(24).toString('base64url')}`;
    const record: ApiKeyRecord = { id, owner, service, scopes, createdAt: new Date().toISOString(), revokedAt: null };
    this.db
      .prepare('INSERT INTO api_keys (id, owner, service, scopes, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(id, owner, service, JSON.stringify(scopes), sha256(key), record.createdAt);
    return { key, record };
  }

  list(): ApiKeyRecord[] {
    const rows = this.db.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all() as Array<Record<string, string | null>>;
    return rows.map((r) => ({
      id: r.id!,
      owner: r.owner!,
      service: r.service as KeyService,
      scopes: JSON.parse(r.scopes!) as string[],
      createdAt: r.created_at!,
      revokedAt: r.revoked_at ?? null,
    }));
  }

  revoke(id: string): boolean {
    return this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(new Date().toISOString(), id).changes === 1;
  }

  /** Active key whose hash equals the given hash (the caller compares in constant time). */
  findActiveByHash(hash: string): (ApiKeyRecord & { keyHash: string }) | undefined {
    const r = this.db.prepare('SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL').get(hash) as Record<string, string | null> | undefined;
    if (!r) return undefined;
    return {
      id: r.id!,
      owner: r.owner!,
      service: r.service as KeyService,
      scopes: JSON.parse(r.scopes!) as string[],
      createdAt: r.created_at!,
      revokedAt: null,
      keyHash: r.key_hash!,
    };
  }
}
