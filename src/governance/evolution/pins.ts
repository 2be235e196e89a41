import type { Knowledge } from '../../classics/packs.js';
import { requireHuman } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import { latestReleased, releaseStatus } from './releases.js';

/**
 * Product pins: each of the products names the exact release it is served. One record per product;
 * a new pin appends a version (the history of pins is kept), and nothing but a human pin moves it:
 * a new release never upgrades a product by itself.
 */

export interface ProductPin {
  productId: string;
  releaseId: string;
  previousReleaseId: string | null;
  pinnedBy: string;
}

export interface Drift {
  total: number;
  latestReleaseId: string | null;
  drifts: { productId: string; pinnedReleaseId: string | null; latestReleaseId: string }[];
  issueRefs: string[];
}

export class ProductPins {
  readonly records: Records<ProductPin>;

  constructor(
    private readonly ledger: LedgerStore,
    private readonly knowledge: Knowledge,
  ) {
    this.records = new Records<ProductPin>(ledger, KIND.productPin, 'pin');
  }

  static recordId = (productId: string) => `pin_${productId}`;

  current(productId: string): Versioned<ProductPin> | undefined {
    return this.records.get(ProductPins.recordId(productId));
  }

  /** Human or editorial X-Actor; a known product; a release whose status is released. */
  pin(input: { productId: string; releaseId: string }, actorHeader: string | string[] | undefined): Versioned<ProductPin> {
    const actor = requireHuman(actorHeader, 'PIN_REJECTED');
    const refuse = (why: string) => new ServiceError(422, 'PIN_REJECTED', why);
    if (!this.knowledge.products.some((p) => p.id === input.productId)) {
      throw refuse(`no product ${input.productId} (products: ${this.knowledge.products.map((p) => p.id).join(', ')})`);
    }
    const release = this.knowledge.releaseById.get(input.releaseId);
    if (!release) throw refuse(`no release ${input.releaseId}`);
    const status = releaseStatus(this.ledger, release);
    if (status !== 'released') throw refuse(`release ${release.id} is ${status}: only a released release can be pinned`);
    const previous = this.current(input.productId);
    return this.records.create(
      { productId: input.productId, releaseId: release.id, previousReleaseId: previous?.releaseId ?? null, pinnedBy: actor.ref },
      actor.ref,
      ProductPins.recordId(input.productId),
    );
  }

  /**
   * Products whose latest pin is not the latest released release, read-only. A product never
   * pinned counts as drifted with pinnedReleaseId null: it has no exact release at all.
   */
  drift(): Drift {
    const latest = latestReleased(this.knowledge, this.ledger);
    if (!latest) return { total: 0, latestReleaseId: null, drifts: [], issueRefs: [] };
    const drifts = this.knowledge.products
      .map((p) => ({ productId: p.id, pinnedReleaseId: this.current(p.id)?.releaseId ?? null, latestReleaseId: latest.id }))
      .filter((d) => d.pinnedReleaseId !== latest.id);
    return { total: drifts.length, latestReleaseId: latest.id, drifts, issueRefs: [] };
  }
}
