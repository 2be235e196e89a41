import type { AppendInput, LedgerStore } from '../../platform/ledger.js';

/**
 * Several record versions written in one ledger transaction: all of them are on disk when
 * commit returns, or none is. Used where one discovery decision changes two records (a verified
 * qualification and its source, a handoff and its candidate, a batch of web results).
 */
export class Batch {
  private readonly writes: AppendInput[] = [];

  constructor(private readonly ledger: LedgerStore) {}

  put(kind: string, recordId: string, actor: string, body: object): void {
    this.writes.push({ kind, recordId, actor, body });
  }

  commit(): void {
    if (this.writes.length) this.ledger.appendMany(this.writes);
  }
}

/** A record's body without the version fields that Records adds on read. */
export function bodyOf<T extends object>(record: T & { id: string; version: number; updatedBy: string; updatedAt: string }): T {
  const { id: _id, version: _version, updatedBy: _by, updatedAt: _at, ...body } = record;
  return body as unknown as T;
}
