import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { synthesizePack, writePack } from '../../scripts/atlas-synth.js';
import { compilePack, COMPILED_DIR, openPack } from '../../src/atlas/compiled.js';
import { GraphIndex } from '../../src/atlas/graph.js';
import { loadPackSync, type Pack } from '../../src/atlas/pack.js';
import { SearchIndex } from '../../src/atlas/search.js';
import { AtlasStore } from '../../src/atlas/store.js';
import { tempDir } from '../helpers.js';

/** A copy of the design-history pack and a synthetic one (hidden entities, dangling and hidden-citing relationships) under a temp PACKS_DIR. */
function packs() {
  const dir = tempDir('atlas-compiled-');
  cpSync(resolve('packs/atlas/design-history'), join(dir, 'atlas', 'design-history'), { recursive: true });
  const synthetic = synthesizePack({ entities: 3000, seed: 5, packId: 'synthetic-3000' });
  // A relationship whose endpoint does not exist is skipped and counted, not served.
  synthetic.relationships.push({ ...synthetic.relationships[0]!, id: 'rel.dangling', target: 'person.nobody' });
  writePack(join(dir, 'atlas', 'synthetic-3000'), synthetic);
  return dir;
}

const full = (dir: string, packId: string): Pack => {
  const result = loadPackSync(join(dir, 'atlas', packId), packId);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.pack;
};

async function compiled(dir: string, packId: string) {
  const result = await compilePack(join(dir, 'atlas', packId), packId);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.stamp;
}

describe('compiled atlas packs', () => {
  it('open to the same pack, graph and search results as the files checked and indexed in full', async () => {
    const dir = packs();
    for (const packId of ['design-history', 'synthetic-3000']) {
      await compiled(dir, packId);
      const opened = await openPack(join(dir, 'atlas', packId), packId);
      expect(opened.opened).toEqual({ compiled: true });
      if (!opened.result.ok || !opened.prebuilt) throw new Error('not opened');
      const pack = full(dir, packId);
      expect(opened.result.pack).toEqual(pack);
      expect(opened.result.pack.manifest.governance.relationshipsSkippedMissingEndpoint).toBe(packId === 'synthetic-3000' ? 1 : 0);
      expect(opened.prebuilt.adjacency).toEqual(GraphIndex.buildSync(pack.entities, pack.relationships.values()).adjacency);

      const built = SearchIndex.buildSync(pack.entities, { searchCacheEntries: 0 });
      const fromCompile = SearchIndex.buildSync(opened.result.pack.entities, { searchCacheEntries: 0 }, opened.prebuilt.search);
      const entities = [...pack.entities.values()];
      const queries = [...entities.slice(0, 150).flatMap((e) => [e.displayName, e.displayName.slice(0, 4), e.description.split(' ').slice(0, 2).join(' ')]), '包豪斯', 'typograpy', 'Rontgen'];
      let hits = 0;
      for (const q of queries) {
        const want = built.search({ q, limit: 20 });
        expect(fromCompile.search({ q, limit: 20 }), q).toEqual(want);
        hits += want.length;
      }
      expect(hits).toBeGreaterThan(1000);
    }
  });

  it('is ignored, with the reason, when a file changed, an artifact is damaged or the code indexes differently', async () => {
    const dir = packs();
    const packDir = join(dir, 'atlas', 'synthetic-3000');
    await compiled(dir, 'synthetic-3000');
    const stampPath = join(packDir, COMPILED_DIR, 'stamp.json');
    const stamp = readFileSync(stampPath, 'utf8');

    writeFileSync(stampPath, stamp.replace(/"fingerprint": "[0-9a-f]+"/, '"fingerprint": "from another version"'));
    expect((await openPack(packDir, 'synthetic-3000')).opened).toEqual({ compiled: false, reason: 'compiled by code that checks or indexes differently' });
    writeFileSync(stampPath, stamp);

    const copy = join(dir, 'atlas', 'synthetic-copy');
    cpSync(packDir, copy, { recursive: true });
    const copied = await openPack(copy, 'synthetic-copy');
    expect(copied.opened).toEqual({ compiled: false, reason: 'compiled as pack "synthetic-3000"' });
    expect(copied.result.ok ? [] : copied.result.errors).toEqual(['manifest.json.packId: "synthetic-3000" does not match the pack directory "synthetic-copy"']);

    const names = join(packDir, COMPILED_DIR, 'names.bin');
    const good = readFileSync(names);
    writeFileSync(names, Buffer.concat([good, Buffer.from([0])]));
    const damaged = await openPack(packDir, 'synthetic-3000');
    expect(damaged.opened).toEqual({ compiled: false, reason: 'compiled artifacts do not match their stamp' });
    expect(damaged.result).toEqual({ ok: true, pack: full(dir, 'synthetic-3000') });
    writeFileSync(names, good);
    expect((await openPack(packDir, 'synthetic-3000')).opened).toEqual({ compiled: true });

    const evidence = readFileSync(join(packDir, 'evidence.json'));
    rmSync(join(packDir, 'evidence.json'));
    const missing = await openPack(packDir, 'synthetic-3000');
    expect(missing.opened).toEqual({ compiled: false, reason: 'a pack file is unreadable' });
    expect(missing.result).toEqual({ ok: false, errors: ['evidence.json: cannot be read (ENOENT)'] });
    writeFileSync(join(packDir, 'evidence.json'), evidence);

    // An edit after the compile: the files are what is served, and checked as always.
    const entities = JSON.parse(readFileSync(join(packDir, 'entities.json'), 'utf8'));
    const at = entities.findIndex((e: { visibility: string }) => e.visibility === 'public');
    entities[at].displayName = 'Renamed after the compile';
    writeFileSync(join(packDir, 'entities.json'), JSON.stringify(entities));
    const edited = await openPack(packDir, 'synthetic-3000');
    expect(edited.opened).toEqual({ compiled: false, reason: 'entities.json changed since it was compiled' });
    if (!edited.result.ok) throw new Error('should load');
    expect(edited.result.pack.entities.get(entities[at].id)?.displayName).toBe('Renamed after the compile');

    entities[at].slug = 'Not A Slug';
    writeFileSync(join(packDir, 'entities.json'), JSON.stringify(entities));
    const invalid = await openPack(packDir, 'synthetic-3000');
    expect(invalid.result.ok).toBe(false);
    if (!invalid.result.ok) expect(invalid.result.errors.join('\n')).toContain(`entities.json[${at}].slug`);
  });

  it('refuses to compile an invalid pack and writes nothing', async () => {
    const dir = packs();
    const packDir = join(dir, 'atlas', 'design-history');
    writeFileSync(join(packDir, 'relationships.json'), '[{"id": 1}]');
    const result = await compilePack(packDir, 'design-history');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatch(/^relationships\.json\[0\]/);
    expect(existsSync(join(packDir, COMPILED_DIR))).toBe(false);
  });

  it('is what the store serves from, and a reload after an edit falls back to the files', async () => {
    const dir = packs();
    await compiled(dir, 'design-history');
    const store = new AtlasStore(dir, 'design-history');
    expect((await store.reload()).opened).toEqual({ compiled: true });
    expect(store.current?.search.search({ q: 'Bauhaus', limit: 1 })[0]).toMatchObject({ id: 'organization.bauhaus', score: 1 });
    const manifestPath = join(dir, 'atlas', 'design-history', 'manifest.json');
    writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, 'utf8')), version: '9.9.9' }));
    const reloaded = await store.reload();
    expect(reloaded.opened).toEqual({ compiled: false, reason: 'manifest.json changed since it was compiled' });
    expect(reloaded.current.version).toBe('9.9.9');
  });

  it('npm run atlas:compile compiles a pack and exits 1 with the problems for an invalid one', () => {
    const dir = packs();
    const out = execFileSync('npx', ['tsx', 'scripts/atlas-compile.ts', '--pack', 'design-history', '--packs-dir', dir], { encoding: 'utf8' });
    expect(out).toMatch(/^compiled .*design-history \(design-history .+\) in \d+ ms\n$/);
    expect(existsSync(join(dir, 'atlas', 'design-history', COMPILED_DIR, 'stamp.json'))).toBe(true);
    writeFileSync(join(dir, 'atlas', 'synthetic-3000', 'evidence.json'), 'not json');
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync('npx', ['tsx', 'scripts/atlas-compile.ts', '--dir', join(dir, 'atlas', 'synthetic-3000')], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      failure = error as { status: number; stderr: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain('evidence.json: not valid JSON');
  });
});
