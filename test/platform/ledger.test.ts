import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../src/platform/db.js';
import { SqliteLedger } from '../../src/platform/ledger.js';
import { tempDir } from '../helpers.js';

let db: Db | undefined;
afterEach(() => db?.close());

function ledgerIn(dir = tempDir()) {
  db = openDatabase(dir);
  return { dir, ledger: new SqliteLedger(db) };
}

describe('ledger', () => {
  it('runs on WAL with synchronous=FULL so a committed write survives a crash', () => {
    ledgerIn();
    expect(db!.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db!.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('appends versions of a record and reads the latest as current state', () => {
    const { ledger } = ledgerIn();
    ledger.append({ kind: 'issue', recordId: 'i1', actor: 'human:ann', body: { status: 'open' } });
    ledger.append({ kind: 'issue', recordId: 'i2', actor: 'ai', body: { status: 'open' } });
    const v2 = ledger.append({ kind: 'issue', recordId: 'i1', actor: 'human:ann', body: { status: 'triaged' } });
    expect(v2.version).toBe(2);
    expect(ledger.latest('issue', 'i1')?.body).toEqual({ status: 'triaged' });
    expect(ledger.history('issue', 'i1').map((r) => r.version)).toEqual([1, 2]);
    expect(ledger.current('issue').map((r) => [r.recordId, r.version])).toEqual([
      ['i2', 1],
      ['i1', 2],
    ]);
  });

  it('finds current records by a body field, by index for fingerprints', () => {
    const { ledger } = ledgerIn();
    ledger.append({ kind: 'issue', recordId: 'i1', actor: 'ai', body: { fingerprint: 'f1', status: 'open' } });
    ledger.append({ kind: 'issue', recordId: 'i2', actor: 'ai', body: { fingerprint: 'f2', status: 'open' } });
    ledger.append({ kind: 'other', recordId: 'o1', actor: 'ai', body: { fingerprint: 'f1' } });
    ledger.append({ kind: 'issue', recordId: 'i1', actor: 'human:ann', body: { fingerprint: 'f1', status: 'closed' } });
    ledger.append({ kind: 'issue', recordId: 'i3', actor: 'ai', body: { fingerprint: 'f3', status: 'open' } });
    ledger.append({ kind: 'issue', recordId: 'i3', actor: 'ai', body: { fingerprint: 'f1', status: 'open' } });
    // Only the latest version of each record counts: i1 is closed now, i3 took the fingerprint later.
    expect(ledger.currentWhere('issue', 'fingerprint', 'f1').map((r) => [r.recordId, r.version, (r.body as { status: string }).status])).toEqual([
      ['i1', 2, 'closed'],
      ['i3', 2, 'open'],
    ]);
    expect(ledger.currentWhere('issue', 'fingerprint', 'f3')).toEqual([]);
    expect(ledger.currentWhere('issue', 'status', 'open').map((r) => r.recordId)).toEqual(['i2', 'i3']);
    expect(() => ledger.currentWhere('issue', "x') OR 1=1 --", 'f1')).toThrow(/not a body field/);
    const plan = db!.prepare(`EXPLAIN QUERY PLAN SELECT * FROM ledger WHERE kind = 'issue' AND json_extract(body, '$.fingerprint') = 'f1'`).all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/ledger_kind_fingerprint/);
  });

  it('commits the rows given in one turn of the event loop in one transaction, then resolves', async () => {
    const { ledger } = ledgerIn();
    const many = vi.spyOn(ledger, 'appendMany');
    const pending = ['a', 'b', 'c'].map((id) => ledger.appendGrouped({ kind: 'snapshot', recordId: id, actor: 'system:test', body: { id } }));
    // Nothing is written before the turn ends, so nothing has been acknowledged either.
    expect(ledger.latest('snapshot', 'a')).toBeUndefined();
    const rows = await Promise.all(pending);
    expect(many).toHaveBeenCalledTimes(1);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(ledger.latest('snapshot', 'c')?.body).toEqual({ id: 'c' });
    expect(ledger.verify().ok).toBe(true);
    // A later turn is a new transaction.
    await ledger.appendGrouped({ kind: 'snapshot', recordId: 'd', actor: 'system:test', body: {} });
    expect(many).toHaveBeenCalledTimes(2);
  });

  it('rejects every row of a grouped transaction that fails, and writes none of them', async () => {
    const { ledger } = ledgerIn();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const good = ledger.appendGrouped({ kind: 'snapshot', recordId: 'ok', actor: 'system:test', body: {} });
    const bad = ledger.appendGrouped({ kind: 'snapshot', recordId: 'bad', actor: 'system:test', body: cyclic });
    await expect(good).rejects.toThrow();
    await expect(bad).rejects.toThrow();
    expect(ledger.count()).toBe(0);
  });

  it('refuses UPDATE and DELETE at the database level', () => {
    const { ledger } = ledgerIn();
    ledger.append({ kind: 'audit', recordId: 'a1', actor: 'system', body: { n: 1 } });
    expect(() => db!.prepare("UPDATE ledger SET body = '{}'").run()).toThrow(/append-only: UPDATE refused/);
    expect(() => db!.prepare('DELETE FROM ledger').run()).toThrow(/append-only: DELETE refused/);
    expect(ledger.count()).toBe(1);
  });

  it('verifies an intact chain and pinpoints a tampered row', () => {
    const { dir, ledger } = ledgerIn();
    for (let i = 1; i <= 5; i++) ledger.append({ kind: 'audit', recordId: `a${i}`, actor: 'system', body: { n: i } });
    expect(ledger.verify()).toMatchObject({ ok: true, rows: 5 });

    // Someone with file access drops the trigger and edits row 3.
    const raw = new Database(join(dir, 'service.db'));
    raw.exec('DROP TRIGGER ledger_no_update');
    raw.prepare(`UPDATE ledger SET body = '{"n":300}' WHERE seq = 3`).run();
    raw.close();

    const result = ledger.verify();
    expect(result.ok).toBe(false);
    expect(result.brokenAt).toBe(3);
    expect(result.reason).toMatch(/hash/);
  });

  it('groups queued rows into one later transaction and keeps the chain intact', async () => {
    const { ledger } = ledgerIn();
    for (let i = 0; i < 20; i++) ledger.enqueue({ kind: 'tq-audit', recordId: `q${i}`, actor: 'system', body: { i } });
    expect(db!.prepare('SELECT COUNT(*) FROM ledger').pluck().get()).toBe(0);
    await new Promise((r) => setTimeout(r, 30));
    expect(db!.prepare('SELECT COUNT(*) FROM ledger').pluck().get()).toBe(20);
    expect(ledger.verify()).toMatchObject({ ok: true, rows: 20 });
  });

  it('commits queued audit rows without an fsync of their own, and acknowledged writes with one', () => {
    const { ledger } = ledgerIn();
    const levels: unknown[] = [];
    const pragma = db!.pragma.bind(db!);
    vi.spyOn(db!, 'pragma').mockImplementation(((source: string, options?: Database.PragmaOptions) => {
      if (source.startsWith('synchronous =')) levels.push(source);
      return pragma(source, options);
    }) as Db['pragma']);
    ledger.enqueue({ kind: 'tq-audit', recordId: 'q1', actor: 'system', body: {} });
    ledger.flush();
    expect(levels).toEqual(['synchronous = NORMAL', 'synchronous = FULL']);
    // Back to FULL for everything else: a governance write is on disk when it is acknowledged.
    expect(pragma('synchronous', { simple: true })).toBe(2);
    ledger.append({ kind: 'issue', recordId: 'i1', actor: 'human:ann', body: {} });
    expect(levels).toHaveLength(2);
    expect(ledger.verify()).toMatchObject({ ok: true, rows: 2 });
  });

  it('continues the chain across a reopen', () => {
    const dir = tempDir();
    const first = ledgerIn(dir).ledger;
    first.append({ kind: 'k', recordId: 'r', actor: 'system', body: 1 });
    db!.close();
    const second = ledgerIn(dir).ledger;
    second.append({ kind: 'k', recordId: 'r', actor: 'system', body: 2 });
    expect(second.verify()).toMatchObject({ ok: true, rows: 2 });
    expect(second.latest('k', 'r')?.version).toBe(2);
  });
});

describe('ledger shared by two processes', () => {
  it('extends one chain when two connections append in turn', () => {
    const { dir, ledger: first } = ledgerIn();
    const otherDb = openDatabase(dir);
    const second = new SqliteLedger(otherDb);
    first.append({ kind: 'k', recordId: 'a', actor: 'system', body: 1 });
    second.append({ kind: 'k', recordId: 'b', actor: 'system', body: 2 });
    first.append({ kind: 'k', recordId: 'c', actor: 'system', body: 3 });
    expect(second.verify()).toMatchObject({ ok: true, rows: 3 });
    otherDb.close();
  });
});
