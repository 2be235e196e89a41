import type { z } from 'zod';
import type { Actor } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import { Batch, bodyOf } from './batch.js';
import type { Author } from './callers.js';
import type { EvidenceRef, OpenQualificationRequest, SourceType } from './schemas.js';
import type { DiscoverySource, Sources } from './sources.js';

export interface Qualification {
  sourceId: string;
  sourceType: z.infer<typeof SourceType>;
  webType: boolean;
  scope: string;
  criteria: string[];
  evidence: EvidenceRef[];
  status: 'not_qualified' | 'qualified';
  formalEvidence: boolean;
  verifiable: boolean;
  verifiedBy: string | null;
  verifiedAt: string | null;
  verificationNote: string | null;
}

const sameScope = (a: string, b: string) => a.normalize('NFKC').toLowerCase().trim() === b.normalize('NFKC').toLowerCase().trim();

/**
 * Source qualifications. One starts not_qualified; only a human (or editorial) actor verifies it,
 * and a web-type source's qualification is never verified, whoever asks: a web snippet never
 * becomes formal evidence. Verifying appends the qualification's next version and the source's
 * (trust `qualified`, formalEvidenceEligible) in one transaction.
 */
export class Qualifications {
  readonly records: Records<Qualification>;

  constructor(
    private readonly ledger: LedgerStore,
    private readonly sources: Sources,
  ) {
    this.records = new Records<Qualification>(ledger, KIND.qualification, 'dq');
  }

  open(input: z.infer<typeof OpenQualificationRequest>, author: Author): Versioned<Qualification> {
    const refuse = (message: string, details?: unknown) => new ServiceError(422, 'QUALIFICATION_REJECTED', message, details);
    if (input.status === 'qualified') throw refuse('a qualification starts not_qualified; only a human verifies it (POST .../qualifications/{id}/verify)');
    const source = this.sources.get(input.sourceId);
    if (!source) throw refuse(`no discovery source ${input.sourceId}`);
    const scope = input.scope.trim();
    if (!scope) throw refuse('scope is blank');
    const open = this.records.list((q) => q.sourceId === source.id && sameScope(q.scope, scope))[0];
    if (open) throw refuse(`source ${source.id} already has a qualification for this scope: ${open.id} (${open.status})`, { existingId: open.id });
    return this.records.create(
      {
        sourceId: source.id,
        sourceType: source.type,
        webType: source.webType,
        scope,
        criteria: (input.criteria ?? []).map((c) => c.trim()).filter(Boolean),
        evidence: input.evidence ?? [],
        status: 'not_qualified',
        formalEvidence: false,
        verifiable: !source.webType,
        verifiedBy: null,
        verifiedAt: null,
        verificationNote: null,
      },
      author.ref,
    );
  }

  /** `verifier` has already passed the human rule (callers.decider); this checks the record. */
  verify(id: string, verifier: Actor, note: string | undefined): Versioned<Qualification> {
    const refuse = (message: string) => new ServiceError(422, 'VERIFY_DENIED', message);
    const current = this.records.get(id);
    if (!current) throw new ServiceError(404, 'NOT_FOUND', `no qualification ${id}`);
    const source = this.sources.get(current.sourceId);
    if (!source) throw new ServiceError(404, 'NOT_FOUND', `qualification ${id} names a source that does not exist (${current.sourceId})`);
    if (source.webType) {
      throw refuse(`source ${source.id} is ${source.type}: a web-type source can never back formal evidence, so its qualification cannot be verified by anyone`);
    }
    if (current.status === 'qualified') throw refuse(`qualification ${id} is already qualified (by ${current.verifiedBy})`);
    const at = new Date().toISOString();
    const body = bodyOf<Qualification>(current);
    const sourceBody = bodyOf<DiscoverySource>(source);
    const batch = new Batch(this.ledger);
    batch.put(KIND.qualification, id, verifier.ref, {
      ...body,
      status: 'qualified',
      formalEvidence: true,
      verifiedBy: verifier.ref,
      verifiedAt: at,
      verificationNote: note?.trim() || null,
    } satisfies Qualification);
    batch.put(KIND.discoverySource, source.id, verifier.ref, {
      ...sourceBody,
      trust: 'qualified',
      formalEvidenceEligible: true,
      qualificationIds: [...sourceBody.qualificationIds, id],
    });
    batch.commit();
    return this.records.get(id)!;
  }
}
