import { createHash } from 'node:crypto';
import type { Db } from './db.js';

export interface LedgerRow {
  seq: number;
  kind: string;
  recordId: string;
  version: number;
  actor: string;
  body: unknown;
  createdAt: string;
  prevHash: string;
  hash: string;
}

export interface AppendInput {
  kind: string;
  recordId: string;
  actor: string;
  body: unknown;
}

export interface VerifyResult {
  ok: boolean;
  rows: number;
  headHash: string;
  /** First row whose hash or link does not match, when ok is false. */
  brokenAt?: number;
  reason?: string;
}

interface RawRow {
  seq: number;
  kind: string;
  record_id: string;
  version: number;
  actor: string;
  body: string;
  created_at: string;
  prev_hash: string;
  hash: string;
}

export const GENESIS_HASH = '0'.repeat(64);

/** hash = sha256(prev_hash + canonical row), the row being its stored column values in order. */
export function rowHash(prevHash: string, row: Omit<RawRow, 'prev_hash' | 'hash'>): string {
  const canonical = JSON.stringify([row.seq, row.kind, row.record_id, row.version, row.actor, row.body, row.created_at]);
  return createHash('sha256').update(prevHash).update(canonical).digest('hex');
}

const toRow = (r: RawRow): LedgerRow => ({
  seq: r.seq,
  kind: r.kind,
  recordId: r.record_id,
  version: r.version,
  actor: r.actor,
  body: JSON.parse(r.body),
  createdAt: r.created_at,
  prevHash: r.prev_hash,
  hash: r.hash,
});

/**
 * The append-only, hash-chained store of every governance, discovery, evolution and audit record.
 * A state change appends a new version of a record; the current state is its latest version.
 * Kept behind this small interface so that another store (PostgreSQL) can stand in for it.
 */
export interface LedgerStore {
  append(input: AppendInput): LedgerRow;
  appendMany(inputs: AppendInput[]): LedgerRow[];
  enqueue(input: AppendInput): void;
  flush(): void;
  /**
   * Appends in one transaction with the other rows given during the same turn of the event loop;
   * resolves with the row once that transaction is committed (durable), rejects if it fails.
   */
  appendGrouped(input: AppendInput): Promise<LedgerRow>;
  latest(kind: string, recordId: string): LedgerRow | undefined;
  history(kind: string, recordId: string): LedgerRow[];
  list(kind: string, options?: { limit?: number; beforeSeq?: number; newestFirst?: boolean }): LedgerRow[];
  current(kind: string): LedgerRow[];
  /** Current rows of a kind whose body has `field` equal to `value` (by index for `fingerprint`). */
  currentWhere(kind: string, field: string, value: string | number): LedgerRow[];
  count(kind?: string): number;
  verify(): VerifyResult;
  close(): void;
}

export class SqliteLedger implements LedgerStore {
  private queue: AppendInput[] = [];
  private grouped: { input: AppendInput; resolve: (row: LedgerRow) => void; reject: (error: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly insert;
  private readonly maxVersion;
  private readonly readHead;
  private readonly selectLatest;
  private readonly selectHistory;
  private readonly selectCurrent;

  constructor(private readonly db: Db, private readonly groupWindowMs = 5) {
    this.insert = db.prepare(
      'INSERT INTO ledger (seq, kind, record_id, version, actor, body, created_at, prev_hash, hash) VALUES (@seq, @kind, @record_id, @version, @actor, @body, @created_at, @prev_hash, @hash)',
    );
    this.maxVersion = db.prepare('SELECT MAX(version) FROM ledger WHERE kind = ? AND record_id = ?').pluck();
    this.readHead = db.prepare('SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1');
    this.selectLatest = db.prepare('SELECT * FROM ledger WHERE kind = ? AND record_id = ? ORDER BY version DESC LIMIT 1');
    this.selectHistory = db.prepare('SELECT * FROM ledger WHERE kind = ? AND record_id = ? ORDER BY version');
    this.selectCurrent = db.prepare('SELECT * FROM ledger_current WHERE kind = ? ORDER BY seq');
  }

  append(input: AppendInput): LedgerRow {
    return this.appendMany([input])[0]!;
  }

  /**
   * All rows in one transaction: either every row is on disk when this returns, or none is. The
   * head of the chain is read inside the (immediate, write-locked) transaction, so another process
   * writing to the same database (the stdio MCP entry, a CLI) extends the chain instead of forking it.
   */
  appendMany(inputs: AppendInput[]): LedgerRow[] {
    const rows: RawRow[] = [];
    let head = { seq: 0, hash: GENESIS_HASH };
    const versions = new Map<string, number>();
    this.db.transaction(() => {
      head = (this.readHead.get() as { seq: number; hash: string } | undefined) ?? { seq: 0, hash: GENESIS_HASH };
      for (const input of inputs) {
        const key = `${input.kind}\u0000${input.recordId}`;
        const version = (versions.get(key) ?? ((this.maxVersion.get(input.kind, input.recordId) as number | null) ?? 0)) + 1;
        versions.set(key, version);
        const partial = {
          seq: head.seq + 1,
          kind: input.kind,
          record_id: input.recordId,
          version,
          actor: input.actor,
          body: JSON.stringify(input.body ?? null),
          created_at: new Date().toISOString(),
        };
        const row: RawRow = { ...partial, prev_hash: head.hash, hash: rowHash(head.hash, partial) };
        this.insert.run(row);
        rows.push(row);
        head.seq = row.seq;
        head.hash = row.hash;
      }
    }).immediate();
    return rows.map(toRow);
  }

  /**
   * For high-rate, low-stakes records (the trusted-query audit): rows are grouped and written in
   * one transaction a few milliseconds later, so a request never waits on a disk flush. That
   * transaction commits without its own fsync (synchronous=NORMAL): once committed, a row survives
   * a crash of the process; a power cut can lose the rows committed since the last fsync, which the
   * next write acknowledged to a client (synchronous=FULL) or the next checkpoint makes.
   * The chain stays whole either way: the WAL is replayed in order, so what is lost is a tail.
   */
  enqueue(input: AppendInput): void {
    this.queue.push(input);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.groupWindowMs);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.queue.length) return;
    const batch = this.queue;
    this.queue = [];
    this.db.pragma('synchronous = NORMAL');
    try {
      this.appendMany(batch);
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }

  appendGrouped(input: AppendInput): Promise<LedgerRow> {
    return new Promise((resolve, reject) => {
      this.grouped.push({ input, resolve, reject });
      // setImmediate runs after this turn's I/O callbacks: every request handled in the same turn
      // joins the transaction.
      if (this.grouped.length === 1) setImmediate(() => this.commitGrouped());
    });
  }

  private commitGrouped(): void {
    const batch = this.grouped;
    this.grouped = [];
    try {
      const rows = this.appendMany(batch.map((b) => b.input));
      batch.forEach((b, i) => b.resolve(rows[i]!));
    } catch (error) {
      for (const b of batch) b.reject(error);
    }
  }

  latest(kind: string, recordId: string): LedgerRow | undefined {
    this.flush();
    const r = this.selectLatest.get(kind, recordId) as RawRow | undefined;
    return r && toRow(r);
  }

  history(kind: string, recordId: string): LedgerRow[] {
    this.flush();
    return (this.selectHistory.all(kind, recordId) as RawRow[]).map(toRow);
  }

  list(kind: string, options: { limit?: number; beforeSeq?: number; newestFirst?: boolean } = {}): LedgerRow[] {
    this.flush();
    const order = options.newestFirst === false ? 'ASC' : 'DESC';
    const rows = this.db
      .prepare(`SELECT * FROM ledger WHERE kind = ? AND seq < ? ORDER BY seq ${order} LIMIT ?`)
      .all(kind, options.beforeSeq ?? Number.MAX_SAFE_INTEGER, options.limit ?? -1) as RawRow[];
    return rows.map(toRow);
  }

  current(kind: string): LedgerRow[] {
    this.flush();
    return (this.selectCurrent.all(kind) as RawRow[]).map(toRow);
  }

  currentWhere(kind: string, field: string, value: string | number): LedgerRow[] {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw new Error(`not a body field name: ${field}`);
    this.flush();
    // The JSON path is written out (not bound) so that SQLite can match the expression index.
    const rows = this.db
      .prepare(
        `SELECT l.* FROM ledger l WHERE l.kind = ? AND json_extract(l.body, '$.${field}') = ?
           AND l.version = (SELECT MAX(version) FROM ledger m WHERE m.kind = l.kind AND m.record_id = l.record_id)
         ORDER BY l.seq`,
      )
      .all(kind, value) as RawRow[];
    return rows.map(toRow);
  }

  count(kind?: string): number {
    this.flush();
    return kind === undefined
      ? (this.db.prepare('SELECT COUNT(*) FROM ledger').pluck().get() as number)
      : (this.db.prepare('SELECT COUNT(*) FROM ledger WHERE kind = ?').pluck().get(kind) as number);
  }

  /** Walks the whole chain in seq order, recomputing every hash and link. */
  verify(): VerifyResult {
    this.flush();
    let prev = GENESIS_HASH;
    let expectedSeq = 1;
    let rows = 0;
    for (const r of this.db.prepare('SELECT * FROM ledger ORDER BY seq').iterate() as IterableIterator<RawRow>) {
      rows++;
      if (r.seq !== expectedSeq) return { ok: false, rows, headHash: prev, brokenAt: r.seq, reason: `row ${expectedSeq} is missing` };
      if (r.prev_hash !== prev) return { ok: false, rows, headHash: prev, brokenAt: r.seq, reason: 'link to the previous row does not match' };
      if (rowHash(prev, r) !== r.hash) return { ok: false, rows, headHash: prev, brokenAt: r.seq, reason: 'row content does not match its hash' };
      prev = r.hash;
      expectedSeq++;
    }
    return { ok: true, rows, headHash: prev };
  }

  close(): void {
    this.flush();
  }
}
