import type { Library } from '../classics/library.js';
import type { Config } from '../config.js';
import type { LedgerStore } from '../platform/ledger.js';
import type { IssueCandidates } from './issue-candidates.js';

/** What the governance, evolution and discovery routes are given. */
export interface GovernanceDeps {
  config: Config;
  ledger: LedgerStore;
  issues: IssueCandidates;
  /** The served release: products, packs, claims, concepts, passages (read-only). */
  lib: Library;
}
