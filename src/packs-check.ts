import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkAtlasPacks } from './atlas/pack-check.js';
import { checkClassicsPacks } from './classics/pack-check.js';

export interface PackReport {
  summary: string[];
  errors: string[];
}

/** Validates the classics packs and the atlas packs under `packsDir`. */
export function checkPacks(packsDir: string): PackReport {
  const report: PackReport = { summary: [], errors: [] };
  if (existsSync(join(packsDir, 'classics'))) {
    const classics = checkClassicsPacks(join(packsDir, 'classics'));
    report.summary.push(...classics.summary);
    report.errors.push(...classics.errors);
  } else {
    report.errors.push(`${packsDir}/classics is missing`);
  }
  const atlas = checkAtlasPacks(join(packsDir, 'atlas'));
  report.summary.push(...atlas.summary);
  report.errors.push(...atlas.errors);
  return report;
}
