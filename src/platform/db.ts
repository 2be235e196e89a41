import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Db = Database.Database;

/**
 * Ordered, append-only list of schema changes. A migration is never edited once released:
 * add a new one instead. `schema_migrations` records which ones ran.
 */
const MIGRATIONS: { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'ledger',
    sql: `
      CREATE TABLE ledger (
        seq        INTEGER PRIMARY KEY,
        kind       TEXT    NOT NULL,
        record_id  TEXT    NOT NULL,
        version    INTEGER NOT NULL,
        actor      TEXT    NOT NULL,
        body       TEXT    NOT NULL,
        created_at TEXT    NOT NULL,
        prev_hash  TEXT    NOT NULL,
        hash       TEXT    NOT NULL,
        UNIQUE (kind, record_id, version)
      );
      CREATE INDEX ledger_kind_seq ON ledger (kind, seq);
      CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'ledger is append-only: UPDATE refused'); END;
      CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'ledger is append-only: DELETE refused'); END;
      CREATE VIEW ledger_current AS
        SELECT l.* FROM ledger l
        WHERE l.version = (SELECT MAX(version) FROM ledger m WHERE m.kind = l.kind AND m.record_id = l.record_id);
    `,
  },
  {
    id: 2,
    name: 'api keys',
    sql: `
      CREATE TABLE api_keys (
        id         TEXT PRIMARY KEY,
        owner      TEXT NOT NULL,
        service    TEXT NOT NULL CHECK (service IN ('classics', 'atlas', 'atlas-admin')),
        scopes     TEXT NOT NULL,
        key_hash   TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
    `,
  },
  {
    id: 3,
    name: 'atlas usage',
    sql: `
      CREATE TABLE atlas_usage (
        day      TEXT    NOT NULL,
        key_id   TEXT    NOT NULL,
        endpoint TEXT    NOT NULL,
        requests INTEGER NOT NULL,
        PRIMARY KEY (day, key_id, endpoint)
      );
    `,
  },
  {
    id: 4,
    name: 'ledger fingerprint index',
    // Filing an issue signal looks up the open candidate with the same fingerprint: by index,
    // not by reading every candidate.
    sql: `CREATE INDEX ledger_kind_fingerprint ON ledger (kind, json_extract(body, '$.fingerprint'));`,
  },
];

export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'service.db'));
  // WAL lets readers run beside the writer; FULL makes a committed write survive a power cut,
  // so a 2xx answer to a write means the write is on disk.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function migrate(db: Db): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const done = new Set(db.prepare('SELECT id FROM schema_migrations').pluck().all() as number[]);
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    if (done.has(m.id)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)').run(m.id, m.name, new Date().toISOString());
    })();
    applied.push(m.id);
  }
  return applied;
}

/** True when the database accepts a write: a write transaction that is rolled back at once. */
export function isWritable(db: Db): boolean {
  if (!db.open || db.readonly) return false;
  try {
    db.exec('BEGIN IMMEDIATE; ROLLBACK;');
    return true;
  } catch {
    return false;
  }
}
