import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import type { Author } from './callers.js';
import type { RegisterSourceRequest, SourceType } from './schemas.js';
import { canonicalUrl, webUrl } from './urls.js';

type SourceTypeName = z.infer<typeof SourceType>;

/** Web, forum and social sources can never back formal evidence, whoever vouches for them. */
export const WEB_TYPES: readonly SourceTypeName[] = ['web', 'forum', 'social'];
export const isWebType = (type: SourceTypeName) => WEB_TYPES.includes(type);

export interface DiscoverySource {
  name: string;
  type: SourceTypeName;
  url: string | null;
  description: string | null;
  tradition: string | null;
  trust: 'untrusted' | 'qualified';
  webType: boolean;
  formalEvidenceEligible: boolean;
  qualificationIds: string[];
  fingerprint: string;
}

const CODE = 'DISCOVERY_SOURCE_REJECTED';
const refuse = (message: string, details?: unknown) => new ServiceError(422, CODE, message, details);

const fingerprintOf = (type: SourceTypeName, name: string, url: string | null) =>
  createHash('sha256')
    .update(url ?? `${type}|${name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()}`)
    .digest('hex')
    .slice(0, 24);

/**
 * The discovery source registry. Every source registers as untrusted; only a verified
 * qualification (qualifications.ts) moves a non-web source to `qualified`. The same address, or
 * for a source without one the same type and name, registers once.
 */
export class Sources {
  readonly records: Records<DiscoverySource>;

  constructor(ledger: LedgerStore) {
    this.records = new Records<DiscoverySource>(ledger, KIND.discoverySource, 'dsrc');
  }

  register(input: z.infer<typeof RegisterSourceRequest>, author: Author): Versioned<DiscoverySource> {
    if (input.trust && input.trust !== 'untrusted') {
      throw refuse(`a source registers as untrusted, not ${input.trust}: trust is earned through a qualification verified by a human`);
    }
    const name = input.name.trim();
    if (!name) throw refuse('name is blank');
    let url: string | null = null;
    if (input.url !== undefined && input.url.trim() !== '') {
      const parsed = webUrl(input.url);
      if (!parsed.ok) throw refuse(`url: ${parsed.reason}`);
      url = canonicalUrl(parsed.url);
    }
    if (isWebType(input.type) && !url) throw refuse(`a ${input.type} source needs its http or https url`);
    const fingerprint = fingerprintOf(input.type, name, url);
    const existing = this.records.list((s) => s.fingerprint === fingerprint)[0];
    if (existing) throw refuse(`this source is already registered as ${existing.id}`, { existingId: existing.id });
    return this.records.create(
      {
        name,
        type: input.type,
        url,
        description: input.description?.trim() || null,
        tradition: input.tradition ?? null,
        trust: 'untrusted',
        webType: isWebType(input.type),
        formalEvidenceEligible: false,
        qualificationIds: [],
        fingerprint,
      },
      author.ref,
    );
  }

  get(id: string): Versioned<DiscoverySource> | undefined {
    return this.records.get(id);
  }

  list(filter: { type?: SourceTypeName; trust?: 'untrusted' | 'qualified' }): Versioned<DiscoverySource>[] {
    return this.records.list((s) => (!filter.type || s.type === filter.type) && (!filter.trust || s.trust === filter.trust));
  }
}
