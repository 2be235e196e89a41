import type { Config } from '../config.js';
import type { Authenticator } from './auth.js';
import type { Db } from './db.js';
import type { KeyRegistry } from './keys.js';
import type { LedgerStore } from './ledger.js';
import type { Readiness } from './readiness.js';

/** What the platform hands to each service plugin. Built once per app by buildApp. */
export interface PlatformContext {
  config: Config;
  db: Db;
  ledger: LedgerStore;
  keys: KeyRegistry;
  auth: Authenticator;
  readiness: Readiness;
}
