/**
 * Usage metering: requests per (UTC day, key id, endpoint). Counting is a Map increment on the
 * request's completion; the buffer is written to SQLite (atlas_usage, counts added with an
 * UPSERT) by a timer and on close, never on the request path. Keys are named by their key id,
 * never by the raw credential.
 */
import type { Db } from '../platform/db.js';

export interface UsageRow {
  day: string;
  keyId: string;
  endpoint: string;
  requests: number;
}

export interface UsageReport {
  from: string;
  to: string;
  rows: UsageRow[];
  totals: { requests: number; byKey: Record<string, number>; byEndpoint: Record<string, number> };
}

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

const SEP = '\u0000';

export class UsageMeter {
  private buffer = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly upsert;
  private readonly select;

  constructor(private readonly db: Db) {
    this.upsert = db.prepare(
      `INSERT INTO atlas_usage (day, key_id, endpoint, requests) VALUES (?, ?, ?, ?)
       ON CONFLICT (day, key_id, endpoint) DO UPDATE SET requests = requests + excluded.requests`,
    );
    this.select = db.prepare(
      `SELECT day, key_id AS keyId, endpoint, requests FROM atlas_usage
       WHERE day >= ? AND day <= ? ORDER BY day, key_id, endpoint`,
    );
  }

  record(keyId: string, endpoint: string, at: Date = new Date()) {
    const key = utcDay(at) + SEP + keyId + SEP + endpoint;
    this.buffer.set(key, (this.buffer.get(key) ?? 0) + 1);
  }

  /** Requests counted but not yet written. */
  get pending(): number {
    let n = 0;
    for (const v of this.buffer.values()) n += v;
    return n;
  }

  /** Writes the buffer in one transaction. On failure the counts go back into the buffer. */
  flush(): number {
    if (this.buffer.size === 0 || !this.db.open) return 0;
    const batch = this.buffer;
    this.buffer = new Map();
    try {
      this.db.transaction(() => {
        for (const [key, requests] of batch) {
          const [day, keyId, endpoint] = key.split(SEP) as [string, string, string];
          this.upsert.run(day, keyId, endpoint, requests);
        }
      })();
    } catch (error) {
      for (const [key, requests] of batch) this.buffer.set(key, (this.buffer.get(key) ?? 0) + requests);
      throw error;
    }
    return batch.size;
  }

  /** Flushes every intervalMs on an unref'd timer (it never keeps the process alive). */
  start(intervalMs: number, onError: (error: unknown) => void) {
    this.stop();
    this.timer = setInterval(() => {
      try {
        this.flush();
      } catch (error) {
        onError(error);
      }
    }, intervalMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Usage between two UTC days inclusive, after a flush so that it is current. */
  report(from: string, to: string): UsageReport {
    this.flush();
    const rows = this.select.all(from, to) as UsageRow[];
    const byKey: Record<string, number> = {};
    const byEndpoint: Record<string, number> = {};
    let requests = 0;
    for (const r of rows) {
      byKey[r.keyId] = (byKey[r.keyId] ?? 0) + r.requests;
      byEndpoint[r.endpoint] = (byEndpoint[r.endpoint] ?? 0) + r.requests;
      requests += r.requests;
    }
    return { from, to, rows, totals: { requests, byKey, byEndpoint } };
  }
}

/** True for a real calendar day in YYYY-MM-DD form. */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && utcDay(d) === day;
}

/** First and last day of a YYYY-MM month. */
export function monthRange(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

export const utcMonth = (at: Date) => at.toISOString().slice(0, 7);

/**
 * The report range: a missing `from` is the first day of the month of `to` (or of now), a missing
 * `to` the last day of the month of `from` (or of now). With neither, the current UTC month.
 */
export function usageRange(from: string | undefined, to: string | undefined, now: Date): { from: string; to: string } {
  return {
    from: from ?? monthRange((to ?? utcDay(now)).slice(0, 7)).from,
    to: to ?? monthRange((from ?? utcDay(now)).slice(0, 7)).to,
  };
}
