import { afterEach, describe, expect, it, vi } from 'vitest';

// Wrap timingSafeEqual so the test can see every comparison the authenticator makes.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const crypto = await import('node:crypto');
const { Authenticator } = await import('../../src/platform/auth.js');
const { openDatabase } = await import('../../src/platform/db.js');
const { KeyRegistry } = await import('../../src/platform/keys.js');
const { tempDir } = await import('../helpers.js');

const spy = crypto.timingSafeEqual as unknown as ReturnType<typeof vi.fn>;

function setup() {
  const db = openDatabase(tempDir());
  const keys = new KeyRegistry(db);
  const authenticator = new Authenticator(
    { classicsTokens: ['classics-token-aaaaaaaaaaaa', 'classics-token-bbbbbbbbbbbb'], atlasApiKeys: ['atlas-consumer-cccccccccccc'], atlasAdminKeys: ['atlas-admin-dddddddddddd'] },
    keys,
  );
  return { db, keys, authenticator };
}

afterEach(() => spy.mockClear());

describe('authenticator', () => {
  it('compares every configured token in constant time, whichever matches', () => {
    const { authenticator } = setup();
    for (const token of ['classics-token-aaaaaaaaaaaa', 'classics-token-bbbbbbbbbbbb', 'classics-token-aaaaaaaaaaab', 'x']) {
      spy.mockClear();
      authenticator.authenticate('classics', token);
      // Two configured classics tokens: both compared, with fixed-length (hashed) buffers.
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(2);
      for (const [a, b] of spy.mock.calls) expect([a.length, b.length]).toEqual([32, 32]);
    }
  });

  it('refuses near misses, other services\u2019 tokens and the empty string', () => {
    const { authenticator } = setup();
    expect(authenticator.authenticate('classics', 'classics-token-aaaaaaaaaaaa')?.kind).toBe('service-token');
    expect(authenticator.authenticate('classics', 'classics-token-aaaaaaaaaaa')).toBeUndefined();
    expect(authenticator.authenticate('classics', 'classics-token-aaaaaaaaaaaaa')).toBeUndefined();
    expect(authenticator.authenticate('classics', 'atlas-consumer-cccccccccccc')).toBeUndefined();
    expect(authenticator.authenticate('atlas', 'classics-token-aaaaaaaaaaaa')).toBeUndefined();
    expect(authenticator.authenticate('classics', '')).toBeUndefined();
  });

  it('tells consumer and admin atlas keys apart', () => {
    const { authenticator } = setup();
    expect(authenticator.authenticate('atlas', 'atlas-consumer-cccccccccccc')).toMatchObject({ kind: 'atlas-consumer', admin: false });
    expect(authenticator.authenticate('atlas', 'atlas-admin-dddddddddddd')).toMatchObject({ kind: 'atlas-admin', admin: true });
  });

  it('names a credential by a key id that does not reveal it', () => {
    const { authenticator } = setup();
    const principal = authenticator.authenticate('classics', 'classics-token-aaaaaaaaaaaa')!;
    expect(principal.keyId).toMatch(/^cfg-[0-9a-f]{12}$/);
    expect(principal.keyId).not.toContain('aaaa');
  });
});

describe('per-user keys', () => {
  it('stores only a hash and opens only its own service until revoked', () => {
    const { db, keys, authenticator } = setup();
    const { key, record } = keys.create('alice', 'classics', ['read', 'personal']);
    const stored = db.prepare('SELECT * FROM api_keys').all() as Array<Record<string, string>>;
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(stored[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);

    expect(authenticator.authenticate('classics', key)).toMatchObject({ kind: 'user-key', owner: 'alice', keyId: record.id, scopes: ['read', 'personal'] });
    expect(authenticator.authenticate('atlas', key)).toBeUndefined();

    expect(keys.revoke(record.id)).toBe(true);
    expect(keys.revoke(record.id)).toBe(false);
    expect(authenticator.authenticate('classics', key)).toBeUndefined();
    expect(keys.list()[0]!.revokedAt).not.toBeNull();
  });

  it('gives atlas-admin user keys admin rights on atlas only', () => {
    const { keys, authenticator } = setup();
    const { key } = keys.create('ops', 'atlas-admin', ['admin']);
    expect(authenticator.authenticate('atlas', key)).toMatchObject({ admin: true, owner: 'ops' });
    expect(authenticator.authenticate('classics', key)).toBeUndefined();
  });
});
