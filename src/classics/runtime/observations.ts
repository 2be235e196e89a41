import type { z } from 'zod';
import type { ModeSummary, ObservationRecord } from './schemas.js';

export type Observation = z.infer<typeof ObservationRecord>;
type Summary = z.infer<typeof ModeSummary>;

/**
 * In-process runtime telemetry: the most recent calls in a fixed-size ring buffer. Recording is a
 * constant-time array write with no I/O, so it never holds a request up; the oldest record is
 * overwritten when the buffer is full. Lost on restart by design (it is telemetry, not a ledger).
 */
export class Observations {
  private readonly buffer: (Observation | undefined)[];
  private next = 0;
  private total = 0;

  constructor(readonly capacity = 2000) {
    this.buffer = new Array(capacity);
  }

  record(observation: Observation): void {
    this.buffer[this.next] = observation;
    this.next = (this.next + 1) % this.capacity;
    this.total++;
  }

  /** Retained records, newest first. */
  newestFirst(): Observation[] {
    const out: Observation[] = [];
    for (let i = 1; i <= Math.min(this.total, this.capacity); i++) {
      out.push(this.buffer[(this.next - i + this.capacity) % this.capacity]!);
    }
    return out;
  }

  /** Per-mode count, errors and duration percentiles over the retained records, and the latest `limit` records. */
  report(limit: number) {
    const records = this.newestFirst();
    const byMode = new Map<string, Observation[]>();
    for (const r of records) {
      const key = r.mode ?? 'unknown';
      const list = byMode.get(key) ?? [];
      list.push(r);
      byMode.set(key, list);
    }
    const summary: Record<string, Summary> = {};
    for (const [mode, list] of [...byMode.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const durations = list.map((r) => r.durationMs).sort((a, b) => a - b);
      summary[mode] = {
        count: list.length,
        errors: list.filter((r) => r.status >= 400).length,
        p50: percentile(durations, 50),
        p95: percentile(durations, 95),
        p99: percentile(durations, 99),
      };
    }
    return { capacity: this.capacity, retained: records.length, totalObserved: this.total, summary, recent: records.slice(0, limit) };
  }
}

/** Nearest-rank percentile of sorted values (0 for none). */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export const outcomeOf = (status: number, abstained: boolean): Observation['outcome'] =>
  status >= 500 ? 'server_error' : status >= 400 ? 'client_error' : abstained ? 'abstained' : 'ok';

/** The HTTP status an error will be answered with (ServiceError and validation errors carry it). */
export const statusOf = (error: unknown): number => {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 ? status : 500;
};

/**
 * Runs one call and records it, whether it answers or throws. `meta` may be updated by `run`
 * (the mode of an adapter call is known once the adapter is found).
 */
export function observed<T>(
  observations: Observations,
  meta: { mode: Observation['mode']; productId: string | null; adapter: string | null; releaseId: string | null },
  run: () => T,
  abstained: (result: T) => boolean,
): T {
  const started = performance.now();
  const finish = (status: number, abstain: boolean) =>
    observations.record({
      at: new Date().toISOString(),
      mode: meta.mode,
      productId: meta.productId,
      adapter: meta.adapter,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      outcome: outcomeOf(status, abstain),
      status,
      releaseId: meta.releaseId,
    });
  try {
    const result = run();
    finish(200, abstained(result));
    return result;
  } catch (error) {
    finish(statusOf(error), false);
    throw error;
  }
}
