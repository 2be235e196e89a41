import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { synthesizePack, writePack } from '../../scripts/atlas-synth.js';
import { validatePack, type Pack, type RawPackFiles } from '../../src/atlas/pack.js';
import type { Config } from '../../src/config.js';
import { makeApp, tempDir, type TestApp } from '../helpers.js';

export const FIXTURE_ID = 'design-mini';
export const FIXTURE_DIR = fileURLToPath(new URL(`./fixtures/${FIXTURE_ID}`, import.meta.url));

/** The fixture pack's four files, parsed. */
export function fixtureFiles(): RawPackFiles & { entities: any[]; relationships: any[]; evidence: any[]; manifest: any } {
  const read = (file: string) => JSON.parse(readFileSync(join(FIXTURE_DIR, file), 'utf8'));
  return { manifest: read('manifest.json'), entities: read('entities.json'), relationships: read('relationships.json'), evidence: read('evidence.json') };
}

export function fixturePack(): Pack {
  const result = validatePack(fixtureFiles(), FIXTURE_ID);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.pack;
}

/**
 * A PACKS_DIR of its own: under atlas/, a copy of the fixture pack that a test may rewrite, plus
 * any synthetic packs asked for. classics/ is empty: indexing the real classics packs takes over
 * a second per app and the atlas does not use them (pass `withClassics` to link them).
 */
export function packsDir(synthetic: Record<string, number> = {}, withClassics = false): string {
  const dir = tempDir('atlas-packs-');
  if (withClassics) symlinkSync(resolve('packs', 'classics'), join(dir, 'classics'));
  else mkdirSync(join(dir, 'classics'));
  mkdirSync(join(dir, 'atlas'));
  cpSync(FIXTURE_DIR, join(dir, 'atlas', FIXTURE_ID), { recursive: true });
  for (const [packId, entities] of Object.entries(synthetic)) writePack(join(dir, 'atlas', packId), synthesizePack({ entities, packId }));
  return dir;
}

export function writeFixtureFile(dir: string, file: string, value: unknown) {
  writeFileSync(join(dir, 'atlas', FIXTURE_ID, file), JSON.stringify(value));
}

/**
 * An app serving the fixture pack. Overload shedding is off (maxEventLoopDelayMs 0): on a busy
 * machine a test would otherwise get a 503 that says nothing about the atlas.
 */
export function atlasApp(overrides: Partial<Config> = {}): Promise<TestApp & { packsDir: string }> {
  const dir = overrides.packsDir ?? packsDir();
  return makeApp({ packsDir: dir, atlasPackId: FIXTURE_ID, maxEventLoopDelayMs: 0, ...overrides }).then((t) => ({
    ...t,
    packsDir: dir,
    close: async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    },
  }));
}
