import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadPackSync } from './pack.js';

/**
 * `npm run packs:check`, atlas part: every folder under packs/atlas that holds a manifest.json is
 * a released pack and must validate (folders with only sources in them, not built yet, are named
 * as problems too: the configured pack must be servable).
 */
export function checkAtlasPacks(atlasDir: string): { summary: string[]; errors: string[] } {
  const summary: string[] = [];
  const errors: string[] = [];
  if (!existsSync(atlasDir)) return { summary, errors: [`${atlasDir} is missing`] };
  for (const packId of readdirSync(atlasDir).sort()) {
    const dir = join(atlasDir, packId);
    if (!statSync(dir).isDirectory()) continue;
    const result = loadPackSync(dir, packId);
    if (!result.ok) {
      errors.push(...result.errors.map((e) => `atlas/${packId}/${e}`));
      continue;
    }
    const { counts, governance } = result.pack.manifest;
    const v = result.pack.version;
    summary.push(
      `atlas/${packId} ${v.version} (${v.channel}): ${counts.entities} released entities of ${governance.totalEntities}, ` +
        `${counts.relationships} relationships, ${counts.evidence} evidence records; ${governance.reviewed} reviewed, ` +
        `${governance.aiCandidateRelationships} AI candidates, ${governance.relationshipsSkippedMissingEndpoint} relationships skipped (missing endpoint)`,
    );
  }
  return { summary, errors };
}
