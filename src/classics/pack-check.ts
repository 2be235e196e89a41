import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { HexagramFile, PassageFile } from './pack-format.js';

function readJson<T>(path: string, schema: z.ZodType<T>, errors: string[]): T | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    errors.push(`${path}: not valid JSON (${(error as Error).message})`);
    return undefined;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues.slice(0, 20)) errors.push(`${path}: ${issue.path.join('.')}: ${issue.message}`);
    return undefined;
  }
  return parsed.data;
}

export function checkClassicsPacks(dir: string): { summary: string[]; errors: string[] } {
  const errors: string[] = [];
  const summary: string[] = [];
  const locators = new Map<string, string>();
  const ids = new Set<string>();
  for (const pack of readdirSync(dir).sort()) {
    const packDir = join(dir, pack);
    for (const file of readdirSync(packDir).filter((f) => /^passages(-[a-z]+)?\.json$/.test(f))) {
      const passages = readJson(join(packDir, file), PassageFile, errors) ?? [];
      for (const p of passages) {
        if (ids.has(p.id)) errors.push(`${pack}/${file}: duplicate passage id ${p.id}`);
        ids.add(p.id);
        const seen = locators.get(p.locator);
        if (seen) errors.push(`${pack}/${file}: duplicate locator ${p.locator} (also in ${seen})`);
        locators.set(p.locator, `${pack}/${file}`);
      }
      summary.push(`classics/${pack}/${file}: ${passages.length} passages, ${passages.filter((p) => p.en).length} with English`);
    }
    for (const file of readdirSync(packDir).filter((f) => /^hexagrams-.*\.json$/.test(f))) {
      const hexagrams = readJson(join(packDir, file), HexagramFile, errors) ?? [];
      summary.push(`classics/${pack}/${file}: ${hexagrams.length} hexagrams`);
    }
  }
  if (!existsSync(dir)) errors.push(`${dir} is missing`);
  return { summary, errors };
}
