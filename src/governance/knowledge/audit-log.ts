/**
 * The evolution audit log: records of operation, decision, evidence and version, each filed under
 * a logType. Append-only: this module offers no way to change or remove a record, and the ledger
 * underneath refuses UPDATE and DELETE.
 */
import type { z } from 'zod';
import { requireActor } from '../../platform/actor.js';
import type { LedgerRow, LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records } from '../records.js';
import { requireFields, type AuditBody, type EvidenceItem } from './schemas-part2.js';

export interface AuditRecordBody {
  operation: string;
  decision: string;
  evidence: EvidenceItem[];
  version: string | number;
  logType: string;
  objectId: string | null;
  recordedBy: string;
}

/**
 * A record as the API shows it. `version` is the audit record's own field (the version the
 * decision applies to), so the view is built from the ledger row here rather than by Records,
 * whose views put the ledger version in that name. An audit record only ever has ledger version 1.
 */
export type AuditView = AuditRecordBody & { id: string; updatedBy: string; updatedAt: string };

const view = (row: LedgerRow): AuditView => ({ ...(row.body as AuditRecordBody), id: row.recordId, updatedBy: row.actor, updatedAt: row.createdAt });

const AUDIT = 'AUDIT_REJECTED';

export class AuditLog {
  readonly records: Records<AuditRecordBody>;

  constructor(private readonly ledger: LedgerStore) {
    this.records = new Records<AuditRecordBody>(ledger, KIND.auditRecord, 'au');
  }

  append(body: z.infer<typeof AuditBody>, actorHeader: string | string[] | undefined): AuditView {
    const actor = requireActor(actorHeader, AUDIT);
    requireFields(AUDIT, body, ['operation', 'decision', 'evidence', 'version', 'logType'], ['evidence']);
    const created = this.records.create(
      {
        operation: body.operation!.trim(),
        decision: body.decision!.trim(),
        evidence: body.evidence!,
        version: typeof body.version === 'string' ? body.version.trim() : body.version!,
        logType: body.logType!.trim(),
        objectId: body.objectId?.trim() || null,
        recordedBy: actor.ref,
      },
      actor.ref,
    );
    return view(this.ledger.latest(KIND.auditRecord, created.id)!);
  }

  list(filter: { logType?: string; operation?: string } = {}): AuditView[] {
    return this.ledger
      .current(KIND.auditRecord)
      .map(view)
      .filter((r) => (!filter.logType || r.logType === filter.logType) && (!filter.operation || r.operation === filter.operation));
  }
}
