import { z } from 'zod';
import type { Library } from '../../classics/library.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { KIND } from '../kinds.js';
import { Records, type Versioned } from '../records.js';
import type { Author } from './callers.js';
import { checkInjection, type InjectionResult } from './injection.js';
import { webUrl } from './urls.js';

/**
 * What an external pack's manifest must say. Checked here rather than in the request schema so
 * that an invalid manifest answers the contract's 422 EXTERNAL_PACK_REJECTED, naming every problem.
 */
export const ExternalPackManifest = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/, 'a lowercase slug (letters, digits, hyphens; 2-64 characters)'),
  version: z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'a semantic version such as 1.0.0'),
  title: z.string().trim().min(1).max(300),
  publisher: z.string().trim().min(1).max(300),
  license: z.string().trim().min(1).max(200),
  homepage: z.string().max(2048).optional(),
  description: z.string().max(4000).optional(),
  traditions: z.array(z.enum(['daoist', 'confucian', 'buddhist', 'yangming', 'cross'])).max(5).default([]),
  files: z
    .array(z.object({ name: z.string().regex(/^[A-Za-z0-9._-]{1,200}$/, 'a plain file name'), sha256: z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits') }))
    .min(1)
    .max(500),
  formal: z.boolean().optional(),
});

export interface ExternalPack {
  packId: string;
  packVersion: string;
  title: string;
  publisher: string;
  license: string;
  homepage: string | null;
  traditions: string[];
  files: { name: string; sha256: string }[];
  formal: false;
  trust: 'untrusted';
  status: 'registered';
  injection: { flagged: boolean; categories: InjectionResult['categories'] };
}

/**
 * External packs: registered, listed as untrusted, never formal and never served as classics
 * knowledge. An id of a pack the service already serves is refused, as is registering the same
 * id and version twice or a manifest that claims to be formal.
 */
export class ExternalPacks {
  readonly records: Records<ExternalPack>;

  constructor(
    ledger: LedgerStore,
    private readonly lib: Library,
  ) {
    this.records = new Records<ExternalPack>(ledger, KIND.externalPack, 'xp');
  }

  register(manifest: Record<string, unknown>, author: Author): Versioned<ExternalPack> {
    const refuse = (message: string, details?: unknown) => new ServiceError(422, 'EXTERNAL_PACK_REJECTED', message, details);
    const parsed = ExternalPackManifest.safeParse(manifest);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `manifest.${i.path.join('.') || '(root)'}: ${i.message}`);
      throw refuse(`invalid manifest: ${problems.join('; ')}`, { problems });
    }
    const m = parsed.data;
    if (m.formal === true) throw refuse('an external pack is never formal: formal: true is refused');
    let homepage: string | null = null;
    if (m.homepage !== undefined) {
      const url = webUrl(m.homepage);
      if (!url.ok) throw refuse(`invalid manifest: manifest.homepage: ${url.reason}`);
      homepage = url.url.href;
    }
    const names = m.files.map((f) => f.name);
    const repeated = names.filter((n, i) => names.indexOf(n) !== i);
    if (repeated.length) throw refuse(`invalid manifest: manifest.files: ${[...new Set(repeated)].join(', ')} listed twice`);
    if (this.lib.knowledge.packs.some((p) => p.manifest.id === m.id)) throw refuse(`${m.id} is a pack this service serves; an external pack needs its own id`);
    const existing = this.records.list((p) => p.packId === m.id && p.packVersion === m.version)[0];
    if (existing) throw refuse(`${m.id} ${m.version} is already registered as ${existing.id}`, { existingId: existing.id });
    const injection = checkInjection([m.title, m.publisher, m.description ?? ''].join('\n'));
    return this.records.create(
      {
        packId: m.id,
        packVersion: m.version,
        title: m.title,
        publisher: m.publisher,
        license: m.license,
        homepage,
        traditions: m.traditions,
        files: m.files,
        formal: false,
        trust: 'untrusted',
        status: 'registered',
        injection: { flagged: injection.flagged, categories: injection.categories },
      },
      author.ref,
    );
  }
}
