/**
 * `npm run packs:release -- <releaseId> [--status released|candidate] [--notes "..."]`: writes
 * packs/classics/releases/<releaseId>.json pinning every pack's version and sha256 checksum.
 * Re-running it for an existing id refreshes the checksums (for a release still being prepared).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadKnowledge } from '../src/classics/packs.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { status: { type: 'string', default: 'released' }, notes: { type: 'string' }, packs: { type: 'string', default: 'packs' } },
});
const releaseId = positionals[0];
if (!releaseId || !/^[a-z0-9][a-z0-9.-]*$/.test(releaseId)) {
  process.stderr.write('usage: npm run packs:release -- <releaseId> [--status released|candidate] [--notes "..."]\n');
  process.exit(2);
}
const classics = join(values.packs!, 'classics');
const { knowledge } = loadKnowledge(classics);
const dir = join(classics, 'releases');
mkdirSync(dir, { recursive: true });
const path = join(dir, `${releaseId}.json`);
const previous = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
const release = {
  id: releaseId,
  status: values.status,
  createdAt: previous?.createdAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  notes: values.notes ?? previous?.notes ?? '',
  packs: knowledge.packs.map((p) => ({ id: p.manifest.id, version: p.manifest.version, sha256: p.sha256 })),
  criticalItems: previous?.criticalItems ?? ['gate-self-test', 'citation-validation', 'eval-answerable', 'eval-unanswerable'],
};
writeFileSync(path, JSON.stringify(release, null, 2) + '\n');
process.stdout.write(`wrote ${path} (${release.packs.length} packs)\n`);
