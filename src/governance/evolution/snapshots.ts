import { createHash } from 'node:crypto';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records } from '../records.js';

/**
 * Historical snapshots: an output stored as the exact JSON text that was served, so that a replay
 * returns it byte for byte. A snapshot is written once and never changes; an unknown id is a MISS,
 * never a fresh computation.
 */

export interface SnapshotBody {
  snapshotId: string;
  /** What produced it, e.g. `insights`. */
  kind: string;
  /** The exact JSON text. */
  payload: string;
  /** sha256 of payload (UTF-8). */
  sha256: string;
}

export interface StoredSnapshot extends SnapshotBody {
  createdAt: string;
}

const store = (ledger: LedgerStore) => new Records<SnapshotBody>(ledger, KIND.snapshot, 'snap');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Stores `payload` (a JSON text) under `snapshotId` (generated when absent). Saving the same
 * payload again under the same id returns the stored snapshot; a different payload is an error,
 * because a snapshot never changes.
 */
export function saveSnapshot(
  ledger: LedgerStore,
  input: { snapshotId?: string; payload: string; kind: string },
  actor = 'system:classics-service',
): StoredSnapshot {
  JSON.parse(input.payload); // throws on anything that is not a JSON text
  const records = store(ledger);
  // Only a caller-named id can already be taken; a generated one is new.
  if (input.snapshotId !== undefined) {
    const existing = loadSnapshot(ledger, input.snapshotId);
    if (existing) {
      if (existing.payload !== input.payload) throw new Error(`snapshot ${input.snapshotId} exists with a different payload; snapshots never change`);
      return existing;
    }
  }
  const snapshotId = input.snapshotId ?? records.newId();
  const row = records.create({ snapshotId, kind: input.kind, payload: input.payload, sha256: sha256(input.payload) }, actor, snapshotId);
  return { snapshotId, kind: row.kind, payload: row.payload, sha256: row.sha256, createdAt: row.updatedAt };
}

/**
 * Stores `value` as JSON under a new id in the ledger's next grouped transaction (see
 * LedgerStore.appendGrouped) and resolves once it is on disk. The payload is serialised here, so
 * it is a JSON text by construction.
 */
export async function saveNewSnapshotGrouped(ledger: LedgerStore, input: { value: unknown; kind: string }, actor = 'system:classics-service'): Promise<StoredSnapshot> {
  const payload = JSON.stringify(input.value);
  const body: SnapshotBody = { snapshotId: store(ledger).newId(), kind: input.kind, payload, sha256: sha256(payload) };
  const row = await ledger.appendGrouped({ kind: KIND.snapshot, recordId: body.snapshotId, actor, body });
  return { ...body, createdAt: row.createdAt };
}

/** The snapshot as first stored, or undefined: never a fallback. */
export function loadSnapshot(ledger: LedgerStore, snapshotId: string): StoredSnapshot | undefined {
  const first = store(ledger).history(snapshotId)[0];
  return first && { snapshotId, kind: first.kind, payload: first.payload, sha256: first.sha256, createdAt: first.updatedAt };
}

export type Replay = ({ status: 'HIT' } & StoredSnapshot) | { status: 'MISS'; snapshotId: string };

export function replay(ledger: LedgerStore, snapshotId: string): Replay {
  const found = loadSnapshot(ledger, snapshotId);
  return found ? { status: 'HIT', ...found } : { status: 'MISS', snapshotId };
}
