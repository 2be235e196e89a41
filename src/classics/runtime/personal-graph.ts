import { KIND } from '../../governance/kinds.js';
import { Records, type Versioned } from '../../governance/records.js';
import type { Principal } from '../../platform/auth.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { Library } from '../library.js';
import { knowledgeObject } from './views.js';

export interface ReferenceBody {
  owner: string;
  objectId: string;
  objectType: string;
  label: string;
  note: string | null;
}

/**
 * Whose references a call may read or write. A per-user key acts for its own owner only: naming
 * another owner is 403. A service token acts for the owner it names; naming none is 400.
 */
export function ownerFor(principal: Principal | undefined, named: string | undefined, field: string): string {
  if (principal?.kind === 'user-key') {
    if (!principal.owner) throw new ServiceError(403, 'FORBIDDEN', 'this per-user key has no owner');
    if (named !== undefined && named !== principal.owner) throw new ServiceError(403, 'FORBIDDEN', `${field}: a per-user key reads and writes only its own owner's references`);
    return principal.owner;
  }
  if (!named) throw new ServiceError(400, 'INVALID_REQUEST', `${field}: a service token must name the owner explicitly`);
  return named;
}

/** Personal-graph references: an owner's saved pointers to objects of the knowledge. */
export class PersonalGraph {
  private readonly records: Records<ReferenceBody>;

  constructor(
    ledger: LedgerStore,
    private readonly lib: Library,
  ) {
    this.records = new Records<ReferenceBody>(ledger, KIND.reference, 'pr');
  }

  /** Saves a reference; saving the same object again for the same owner updates its note. */
  save(owner: string, input: { objectId: string; note?: string }, actor: string): { reference: Versioned<ReferenceBody>; created: boolean } {
    const object = knowledgeObject(this.lib, input.objectId);
    if (!object) throw new ServiceError(400, 'INVALID_REQUEST', `body.objectId: no object ${input.objectId} in the knowledge (a concept, passage, claim, source, situation, reading path or conflict id)`);
    const note = input.note?.trim() || null;
    const existing = this.records.list((r) => r.owner === owner && r.objectId === input.objectId)[0];
    if (existing) return { reference: this.records.update(existing.id, actor, (r) => ({ ...r, note }))!, created: false };
    return { reference: this.records.create({ owner, objectId: input.objectId, objectType: object.type, label: object.label, note }, actor), created: true };
  }

  list(owner: string): Versioned<ReferenceBody>[] {
    return this.records.list((r) => r.owner === owner);
  }

  /** The owner's reference with this id, or undefined (another owner's reference is not revealed). */
  ownedBy(owner: string, referenceId: string): Versioned<ReferenceBody> | undefined {
    const found = this.records.get(referenceId);
    return found && found.owner === owner ? found : undefined;
  }
}
