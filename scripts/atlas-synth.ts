/**
 * `npm run atlas:synth -- --entities N [--out packs/atlas/synthetic-N] [--seed 1] [--version V]`
 *
 * Writes a valid synthetic atlas pack of N entities spread over the seven kinds, with about three
 * relationships per entity, evidence records citing source entities, a share of internal and
 * draft entities, AI candidate relationships, diacritics and CJK aliases. Deterministic: the same
 * arguments always give byte-identical files (seeded PRNG, fixed releasedAt).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ENTITY_KINDS, type Entity, type EntityKind, type Evidence, type Relationship } from '../src/atlas/pack.js';

export interface SynthOptions {
  entities: number;
  seed?: number;
  packId?: string;
  version?: string;
}

export interface SynthPack {
  manifest: Record<string, unknown>;
  entities: Entity[];
  relationships: Relationship[];
  evidence: Evidence[];
}

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mer', 'vin', 'ta', 'ro', 'sel', 'du', 'bra', 'nik', 'o', 'fen', 'gra', 'li', 'mo', 'stä', 'ré', 'zu', 'han', 'bel', 'cor', 'dö', 'ev', 'ian'];
const WORDS = ['modern', 'form', 'function', 'typeface', 'chair', 'grid', 'poster', 'workshop', 'school', 'manifesto', 'steel', 'glass', 'craft', 'industrial', 'print', 'colour', 'geometry', 'housing', 'exhibition', 'furniture', 'lamp', 'textile', 'ceramic', 'Swiss', 'Scandinavian', 'avant-garde', 'concrete', 'ornament', 'rational', 'organic'];
const HAN = ['設', '計', '建', '築', '美', '術', '工', '芸', '家', '具', '椅', '子', '光', '線', '紙', '木', '村', '山', '田', '柳'];
const REL_TYPES: Record<EntityKind, string[]> = {
  person: ['influenced', 'studied-with', 'member-of', 'created'],
  work: ['influenced', 'exhibited-at', 'part-of'],
  place: ['located-in', 'related-to'],
  organization: ['located-in', 'part-of', 'related-to'],
  movement: ['influenced', 'related-to'],
  concept: ['related-to', 'influenced'],
  source: ['documents', 'related-to'],
};

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const asciiSlug = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function synthesizePack(options: SynthOptions): SynthPack {
  const n = options.entities;
  if (!Number.isInteger(n) || n < ENTITY_KINDS.length) throw new Error(`--entities must be an integer of at least ${ENTITY_KINDS.length}`);
  const rand = prng(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const word = () => capitalize(Array.from({ length: 2 + Math.floor(rand() * 2) }, () => pick(SYLLABLES)).join(''));

  const entities: Entity[] = [];
  for (let i = 0; i < n; i++) {
    const kind = ENTITY_KINDS[i % ENTITY_KINDS.length]!;
    const name = kind === 'person' ? `${word()} ${word()}` : `${word()} ${pick(WORDS)}`;
    const slug = `${asciiSlug(name)}-${i}`;
    const aliases: string[] = [];
    if (rand() < 0.5) aliases.push(`${name.split(' ')[0]} ${i}`);
    if (rand() < 0.05) aliases.push(Array.from({ length: 2 + Math.floor(rand() * 2) }, () => pick(HAN)).join(''));
    const entity: Entity = {
      id: `${kind}.${slug}`,
      kind,
      slug,
      displayName: name,
      aliases,
      // Mostly rare pseudo-words with some common design words, like real prose (a 30-word
      // vocabulary alone would make every description match every common query).
      description: `${capitalize(Array.from({ length: 12 }, () => (rand() < 0.25 ? pick(WORDS) : word().toLowerCase())).join(' '))}.`,
      visibility: rand() < 0.9 ? 'public' : 'internal',
      reviewState: rand() < 0.8 ? 'reviewed' : 'draft',
    };
    if (kind === 'person') {
      entity.born = 1850 + Math.floor(rand() * 120);
      entity.died = entity.born + 40 + Math.floor(rand() * 50);
    } else if (kind === 'work') entity.year = 1880 + Math.floor(rand() * 140);
    else if (kind === 'organization') entity.founded = 1880 + Math.floor(rand() * 140);
    entities.push(entity);
  }
  const sources = entities.filter((e) => e.kind === 'source').map((e) => e.id);

  const relationships: Relationship[] = [];
  const evidence: Evidence[] = [];
  for (let i = 0; i < n; i++) {
    const from = entities[i]!;
    for (let k = 0; k < 3; k++) {
      // Mostly near neighbours (clusters, like real history), sometimes anywhere.
      const j = rand() < 0.7 ? (i + 1 + Math.floor(rand() * 50)) % n : Math.floor(rand() * n);
      if (j === i) continue;
      const to = entities[j]!;
      const type = pick(REL_TYPES[from.kind]);
      const ai = rand() < 0.1;
      const evidenceIds = rand() < 0.6 ? [...new Set(Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick(sources)))] : [];
      const id = `rel.${i}-${k}`;
      relationships.push({
        id,
        source: from.id,
        target: to.id,
        type,
        label: type.replace(/-/g, ' '),
        confidence: Math.round((0.5 + rand() * 0.5) * 100) / 100,
        evidenceIds,
        candidate: ai,
        origin: ai ? 'ai' : 'curated',
      });
      evidenceIds.forEach((sourceEntityId, m) => evidence.push({ id: `ev.${i}-${k}-${m}`, relationshipId: id, sourceEntityId, note: `Synthetic citation ${m + 1} for ${id}.` }));
    }
  }

  return {
    manifest: {
      packId: options.packId ?? `synthetic-${n}`,
      packName: `Synthetic atlas pack (${n} entities)`,
      version: options.version ?? `1.0.0-synthetic.${n}`,
      channel: 'synthetic',
      releasedAt: '2025-01-01T00:00:00Z',
      filter: { visibility: ['public'] },
    },
    entities,
    relationships,
    evidence,
  };
}

export function writePack(dir: string, pack: SynthPack) {
  mkdirSync(dir, { recursive: true });
  const write = (file: string, value: unknown) => writeFileSync(join(dir, file), JSON.stringify(value, null, 1) + '\n');
  write('manifest.json', pack.manifest);
  write('entities.json', pack.entities);
  write('relationships.json', pack.relationships);
  write('evidence.json', pack.evidence);
}

function main(argv: string[]) {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i === -1 ? undefined : argv[i + 1];
  };
  const entities = Number(arg('entities'));
  if (!Number.isInteger(entities) || entities < ENTITY_KINDS.length) {
    process.stderr.write('usage: npm run atlas:synth -- --entities N [--out packs/atlas/synthetic-N] [--seed 1] [--version V]\n');
    process.exit(2);
  }
  const out = arg('out') ?? join('packs', 'atlas', `synthetic-${entities}`);
  const pack = synthesizePack({ entities, seed: Number(arg('seed') ?? 1), packId: basename(out), version: arg('version') });
  writePack(out, pack);
  process.stdout.write(`wrote ${out}: ${pack.entities.length} entities, ${pack.relationships.length} relationships, ${pack.evidence.length} evidence records\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
