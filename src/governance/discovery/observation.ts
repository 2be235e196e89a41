import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, fstatSync, writeSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * The discovery observation log: one JSON line per discovery operation in
 * DATA_DIR/discovery-observations.jsonl, written and fsync'ed before the response leaves. The
 * summary is rebuilt from the file at start and kept current in memory; a torn or corrupt line is
 * skipped and counted, never fatal. Lines carry what happened (operation, outcome, code, actor,
 * record ids), never the submitted text.
 */

export type ActorKind = 'human' | 'editorial' | 'ai' | 'system' | 'credential' | 'malformed';

export interface ObservationLine {
  v: 1;
  at: string;
  operation: string;
  outcome: 'ok' | 'refused';
  status: number;
  code: string | null;
  actor: string;
  actorKind: ActorKind;
  records: string[];
  /** Injection checks: whether the text was flagged. */
  flagged?: boolean;
}

export interface ObservationSummary {
  file: string;
  total: number;
  skipped: number;
  ok: number;
  refused: number;
  byOperation: Record<string, { ok: number; refused: number }>;
  byCode: Record<string, number>;
  byActorKind: Record<string, number>;
  injection: { checked: number; flagged: number };
  firstAt: string | null;
  lastAt: string | null;
}

const emptySummary = (file: string): ObservationSummary => ({
  file,
  total: 0,
  skipped: 0,
  ok: 0,
  refused: 0,
  byOperation: {},
  byCode: {},
  byActorKind: {},
  injection: { checked: 0, flagged: 0 },
  firstAt: null,
  lastAt: null,
});

function isLine(value: unknown): value is ObservationLine {
  const v = value as Partial<ObservationLine> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.v === 1 &&
    typeof v.at === 'string' &&
    typeof v.operation === 'string' &&
    (v.outcome === 'ok' || v.outcome === 'refused') &&
    typeof v.status === 'number' &&
    typeof v.actorKind === 'string'
  );
}

/** Adds one line to a summary (in place). */
export function count(summary: ObservationSummary, line: ObservationLine): void {
  summary.total++;
  summary[line.outcome]++;
  const op = (summary.byOperation[line.operation] ??= { ok: 0, refused: 0 });
  op[line.outcome]++;
  if (line.code) summary.byCode[line.code] = (summary.byCode[line.code] ?? 0) + 1;
  summary.byActorKind[line.actorKind] = (summary.byActorKind[line.actorKind] ?? 0) + 1;
  if (line.flagged !== undefined && line.outcome === 'ok') {
    summary.injection.checked++;
    if (line.flagged) summary.injection.flagged++;
  }
  summary.firstAt ??= line.at;
  summary.lastAt = line.at;
}

/** The summary of a log file's text: every well-formed line counted, every other non-empty line skipped. */
export function summarize(content: string, file: string): ObservationSummary {
  const summary = emptySummary(file);
  for (const raw of content.split('\n')) {
    if (!raw.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      summary.skipped++;
      continue;
    }
    if (isLine(parsed)) count(summary, parsed);
    else summary.skipped++;
  }
  return summary;
}

export class ObservationLog {
  private fd: number | undefined;
  private current: ObservationSummary;

  constructor(path: string) {
    this.current = summarize(existsSync(path) ? readFileSync(path, 'utf8') : '', basename(path));
    this.fd = openSync(path, 'a+');
    // A torn last line (a crash mid-write) has no newline: end it, so the next line stays whole
    // and the torn one stays a single skipped line.
    const size = fstatSync(this.fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(this.fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) {
        writeSync(this.fd, '\n');
        fsyncSync(this.fd);
      }
    }
  }

  /** Appends one line and fsyncs it: when this returns, the line is on disk. */
  append(line: Omit<ObservationLine, 'v' | 'at'>): ObservationLine {
    if (this.fd === undefined) throw new Error('the discovery observation log is closed');
    const full: ObservationLine = { v: 1, at: new Date().toISOString(), ...line };
    writeSync(this.fd, JSON.stringify(full) + '\n');
    fsyncSync(this.fd);
    count(this.current, full);
    return full;
  }

  summary(): ObservationSummary {
    return structuredClone(this.current);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
