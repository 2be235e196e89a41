import { randomUUID } from 'node:crypto';
import type { LedgerRow, LedgerStore } from '../platform/ledger.js';

/** A record's current state as routes return it: its body plus who wrote which version when. */
export type Versioned<T> = T & { id: string; version: number; updatedBy: string; updatedAt: string };

const view = <T>(row: LedgerRow): Versioned<T> => ({ ...(row.body as T), id: row.recordId, version: row.version, updatedBy: row.actor, updatedAt: row.createdAt });

/**
 * Records of one kind on the append-only ledger. Nothing is updated in place: a change appends
 * the record's next version with its whole body, and the current state is the latest version.
 * Every write is synchronous and durable (synchronous=FULL) before it returns.
 */
export class Records<T extends object> {
  constructor(
    private readonly ledger: LedgerStore,
    readonly kind: string,
    private readonly prefix: string,
  ) {}

  newId(): string {
    return `${this.prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  }

  create(body: T, actor: string, id = this.newId()): Versioned<T> {
    return view<T>(this.ledger.append({ kind: this.kind, recordId: id, actor, body }));
  }

  /** Appends the next version: `change` gets the current body and returns the new one. */
  update(id: string, actor: string, change: (current: T) => T): Versioned<T> | undefined {
    const current = this.ledger.latest(this.kind, id);
    if (!current) return undefined;
    return view<T>(this.ledger.append({ kind: this.kind, recordId: id, actor, body: change(current.body as T) }));
  }

  get(id: string): Versioned<T> | undefined {
    const row = this.ledger.latest(this.kind, id);
    return row ? view<T>(row) : undefined;
  }

  history(id: string): Versioned<T>[] {
    return this.ledger.history(this.kind, id).map((row) => view<T>(row));
  }

  /** Current state of the records whose body has `field` equal to `value`, oldest first. */
  where(field: keyof T & string, value: string | number): Versioned<T>[] {
    return this.ledger.currentWhere(this.kind, field, value).map((row) => view<T>(row));
  }

  /** Current state of every record of this kind, oldest first, optionally filtered. */
  list(filter?: (record: Versioned<T>) => boolean): Versioned<T>[] {
    const all = this.ledger.current(this.kind).map((row) => view<T>(row));
    return filter ? all.filter(filter) : all;
  }
}
