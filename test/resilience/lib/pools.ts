import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const read = (file: string): any => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : []);
const list = (value: any): any[] => (Array.isArray(value) ? value : value && typeof value === 'object' ? ((Object.values(value).find(Array.isArray) as any[]) ?? []) : []);
const ids = (items: any[]) => items.map((x) => x?.id).filter((x): x is string => typeof x === 'string' && x.length > 0);

/** Every n-th of a list, at most `count`: a deterministic spread over the whole list. */
const spread = <T>(items: T[], count: number) => {
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, i) => i % step === 0).slice(0, count);
};

/** Real identifiers from the served packs, by what they name. */
export interface IdPools {
  releases: string[];
  packs: string[];
  products: string[];
  /** Knowledge objects: concepts, passages, claims, situations, conflicts, reading paths, misreadings. */
  objects: string[];
  passages: string[];
  concepts: string[];
  paths: string[];
  atlasIds: string[];
  atlasSlugs: string[];
  atlasPacks: string[];
}

export function packIds(packsDir: string, atlasPackId: string): IdPools {
  const classics = join(packsDir, 'classics');
  const core = (file: string) => list(read(join(classics, 'core', `${file}.json`)));
  const concepts = ids(spread(core('concepts'), 6));
  const paths = ids(spread(core('paths'), 3));
  const objects = [...concepts, ...paths, ...ids(spread(core('situations'), 3)), ...ids(spread(core('conflicts'), 2)), ...ids(spread(core('misreadings'), 2))];
  const passages: string[] = [];
  const packs: string[] = [];
  if (existsSync(classics)) {
    for (const pack of readdirSync(classics)) {
      if (pack === 'releases') continue;
      packs.push(pack);
      for (const file of existsSync(join(classics, pack, 'pack.json')) ? readdirSync(join(classics, pack)) : []) {
        if (/^passages.*\.json$/.test(file)) passages.push(...ids(spread(list(read(join(classics, pack, file))), 2)));
        if (/^claims.*\.json$/.test(file)) objects.push(...ids(spread(list(read(join(classics, pack, file))), 2)));
      }
    }
  }
  objects.push(...passages);
  const releasesDir = join(classics, 'releases');
  const releases = existsSync(releasesDir) ? readdirSync(releasesDir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')) : [];
  const atlas = join(packsDir, 'atlas', atlasPackId);
  const entities = spread(list(read(join(atlas, 'entities.json'))), 6);
  return {
    releases,
    packs,
    products: ids(core('products')),
    objects,
    passages,
    concepts,
    paths,
    atlasIds: [...ids(entities), ...ids(spread(list(read(join(atlas, 'relationships.json'))), 2)), ...ids(spread(list(read(join(atlas, 'evidence.json'))), 2))],
    atlasSlugs: entities.map((e) => e.slug).filter((s): s is string => typeof s === 'string'),
    atlasPacks: [atlasPackId],
  };
}

/**
 * The identifiers that fit a field (by its name and the route's path), or undefined when the
 * field names a record created at run time (those come from earlier answers instead).
 */
export function poolFor(pools: IdPools, field: string, path: string): string[] | undefined {
  const pick = (xs: string[]) => (xs.length ? xs : undefined);
  if (path.startsWith('/api/atlas/')) {
    if (/slug/i.test(field)) return pick(pools.atlasSlugs);
    if (/packId/i.test(field)) return pick(pools.atlasPacks);
    return pick(pools.atlasIds);
  }
  if (/release/i.test(field) || (field === 'id' && /\/(releases|manifests)\/\{id\}/.test(path))) return pick(pools.releases);
  if (/scope|packIds/i.test(field)) return pick(pools.packs);
  if (/^(productId|adapterId)$/.test(field)) return pick(pools.products);
  if (/passage/i.test(field)) return pick(pools.passages);
  if (/^pathId$/.test(field)) return pick(pools.paths);
  if (/^(seedIds|relationId|sourceId)$/.test(field)) return pick([...pools.concepts, ...pools.passages]);
  if (/^(objectId|objectIds|targetId|targetIds|fragmentId)$/.test(field) || (field === 'id' && /\/(graph\/nodes|objects)\/\{id\}/.test(path))) return pick(pools.objects);
  return undefined;
}
