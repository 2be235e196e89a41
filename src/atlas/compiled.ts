/**
 * Compiled atlas packs: the work of loading a large pack done once, at release time.
 *
 * `npm run atlas:compile -- --pack <id>` validates a pack in full, builds its search index and
 * writes packs/atlas/<id>/compiled/:
 *   - pack.json: the released view only (what validation and the release filter leave), with
 *     references written as positions instead of repeated ids, and the computed manifest;
 *   - names.bin and descriptions.bin: the name and description indexes (TextIndex.serialize);
 *   - stamp.json, written last: the SHA-256 of each pack file and of each artifact, and the
 *     fingerprint of the code that checked and indexed them (record schemas, search fields,
 *     boosts and tokenisation).
 *
 * Loading a pack (startup and every reload) reads the stamp. When the fingerprint is the running
 * code's and every digest matches the bytes just read, the served pack is built from pack.json
 * (no schema checks, no hidden records, no resolving of references by id) and the search engines
 * are opened instead of rebuilt. Anything else (no compiled folder, an edited file, an artifact
 * that does not match, code that indexes differently) loads the pack the full way, with the same
 * result: tests hold the two paths to equal packs and equal search results. A stale compile
 * costs time, never correctness.
 *
 * The compiled folder is a build output: it is not committed and a pack is valid without one.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  EntitySchema,
  EvidenceSchema,
  ManifestFileSchema,
  NO_IDS,
  PACK_FILES,
  readPackFiles,
  RelationshipSchema,
  validatePackFiles,
  type ComputedManifest,
  type Entity,
  type Evidence,
  type Pack,
  type PackResult,
  type PackVersion,
  type Relationship,
} from './pack.js';
import { GraphIndex } from './graph.js';
import { TEXT_INDEX_FORMAT } from '../platform/text-index.js';
import { SearchIndex, type CompiledSearch } from './search.js';
import { runAsync, ticker, type Steps } from './steps.js';

export const COMPILED_DIR = 'compiled';
const STAMP = 'stamp.json';
const PACK = 'pack.json';
const NAMES = 'names.bin';
const DESCRIPTIONS = 'descriptions.bin';
/** Bumped when the layout of the compiled folder changes. */
const FORMAT = 1;

const StampSchema = z.object({
  format: z.literal(FORMAT),
  fingerprint: z.string(),
  packId: z.string(),
  version: z.string(),
  compiledAt: z.string(),
  files: z.record(z.string(), z.string()),
  artifacts: z.object({ [PACK]: z.string(), [NAMES]: z.string(), [DESCRIPTIONS]: z.string() }),
});
type Stamp = z.infer<typeof StampSchema>;

let codeFingerprint: string | undefined;

/** What a compile depends on in the code: the record schemas and how the search index is built. */
export function fingerprint(): string {
  codeFingerprint ??= sha256(
    JSON.stringify({
      format: FORMAT,
      textIndex: TEXT_INDEX_FORMAT,
      schemas: [ManifestFileSchema, EntitySchema, RelationshipSchema, EvidenceSchema].map((schema) => z.toJSONSchema(schema, { unrepresentable: 'any' })),
      search: SearchIndex.fingerprint(),
    }),
  );
  return codeFingerprint;
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * JSON with every character outside ASCII escaped: pack.json is then read as a one-byte string
 * (Latin-1 decoding, no UTF-8 validation, half the memory of a two-byte string).
 */
function asciiJson(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A file's SHA-256, hashed in libuv's thread pool while the event loop goes on with other work
 * (the classics load at startup). The file is held only until it is hashed.
 */
async function fileDigest(path: string): Promise<string> {
  return digest(await readFile(path));
}

/** Off the event loop: Web Crypto digests run in libuv's thread pool. */
async function digest(data: Uint8Array): Promise<string> {
  // Files are read into plain (never shared) ArrayBuffers.
  return Buffer.from(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>)).toString('hex');
}

/**
 * pack.json. Entities are written as they are; relationships and evidence as columns (one array
 * per field, the same position in each for one record), which parse several times faster than
 * one small object or array per record. References are positions: entities in `entities`, a
 * relationship in `relationships.id`, types, labels and origins in `vocabulary`. A relationship's
 * evidence ids are `citing` from `citedFrom[i]` to `citedFrom[i + 1]`; notes are by position.
 * `adjacency` is the graph's: entity i's relationships, in the graph's order, are
 * `adjacency.relationships` from `adjacency.from[i]` to `adjacency.from[i + 1]`. `sorted` lists
 * the entities in id order (the manifest's releasedEntityIds).
 */
interface CompiledPack {
  version: PackVersion;
  manifest: Omit<ComputedManifest, 'releasedEntityIds'>;
  vocabulary: string[];
  entities: Entity[];
  relationships: {
    id: string[];
    source: number[];
    target: number[];
    type: number[];
    label: number[];
    confidence: number[];
    candidate: (0 | 1)[];
    origin: number[];
    citedFrom: number[];
    citing: number[];
    notes: Record<string, string>;
  };
  evidence: { id: string[]; relationship: number[]; source: number[]; note: string[] };
  adjacency: { from: number[]; relationships: number[] };
  sorted: number[];
}

function encode(pack: Pack, graph: GraphIndex): string {
  const entityAt = new Map<string, number>();
  for (const id of pack.entities.keys()) entityAt.set(id, entityAt.size);
  const vocabulary = new Map<string, number>();
  const word = (value: string) => {
    let at = vocabulary.get(value);
    if (at === undefined) vocabulary.set(value, (at = vocabulary.size));
    return at;
  };
  const relationshipAt = new Map<string, number>();
  const rel: CompiledPack['relationships'] = { id: [], source: [], target: [], type: [], label: [], confidence: [], candidate: [], origin: [], citedFrom: [0], citing: [], notes: {} };
  for (const r of pack.relationships.values()) {
    relationshipAt.set(r.id, rel.id.length);
    if (r.note !== undefined) rel.notes[rel.id.length] = r.note;
    rel.id.push(r.id);
    rel.source.push(entityAt.get(r.source)!);
    rel.target.push(entityAt.get(r.target)!);
    rel.type.push(word(r.type));
    rel.label.push(word(r.label));
    rel.confidence.push(r.confidence);
    rel.candidate.push(r.candidate ? 1 : 0);
    rel.origin.push(word(r.origin));
    for (const id of r.evidenceIds) rel.citing.push(entityAt.get(id)!);
    rel.citedFrom.push(rel.citing.length);
  }
  const ev: CompiledPack['evidence'] = { id: [], relationship: [], source: [], note: [] };
  for (const e of pack.evidence.values()) {
    ev.id.push(e.id);
    ev.relationship.push(relationshipAt.get(e.relationshipId)!);
    ev.source.push(entityAt.get(e.sourceEntityId)!);
    ev.note.push(e.note);
  }
  const adjacency: CompiledPack['adjacency'] = { from: [0], relationships: [] };
  for (const id of pack.entities.keys()) {
    for (const r of graph.adjacency.get(id) ?? []) adjacency.relationships.push(relationshipAt.get(r.id)!);
    adjacency.from.push(adjacency.relationships.length);
  }
  const { releasedEntityIds, ...manifest } = pack.manifest;
  const compiled: CompiledPack = {
    version: pack.version,
    manifest,
    vocabulary: [...vocabulary.keys()],
    entities: [...pack.entities.values()],
    relationships: rel,
    evidence: ev,
    adjacency,
    sorted: releasedEntityIds.map((id) => entityAt.get(id)!),
  };
  return JSON.stringify(compiled);
}

interface Decoded {
  /** The Pack that validation gives for the files pack.json was compiled from. */
  pack: Pack;
  /** The graph's adjacency lists for it. */
  adjacency: Map<string, Relationship[]>;
}

function* decode(text: string): Steps<Decoded> {
  const tick = ticker(512);
  const c = JSON.parse(text) as CompiledPack;
  const entities = new Map<string, Entity>();
  const bySlug = new Map<string, Entity>();
  for (const e of c.entities) {
    entities.set(e.id, e);
    bySlug.set(e.slug, e);
    if (tick()) yield;
  }
  const ids = c.entities.map((e) => e.id);
  const words = c.vocabulary;
  const relationships = new Map<string, Relationship>();
  const rel = c.relationships;
  const byPosition: Relationship[] = [];
  for (let i = 0; i < rel.id.length; i++) {
    const from = rel.citedFrom[i]!;
    const to = rel.citedFrom[i + 1]!;
    let evidenceIds = NO_IDS;
    if (to > from) {
      evidenceIds = [];
      for (let j = from; j < to; j++) evidenceIds.push(ids[rel.citing[j]!]!);
    }
    const r: Relationship = {
      id: rel.id[i]!,
      source: ids[rel.source[i]!]!,
      target: ids[rel.target[i]!]!,
      type: words[rel.type[i]!]!,
      label: words[rel.label[i]!]!,
      confidence: rel.confidence[i]!,
      evidenceIds,
      candidate: rel.candidate[i] === 1,
      origin: words[rel.origin[i]!] as Relationship['origin'],
    };
    const note = rel.notes[i];
    if (note !== undefined) r.note = note;
    relationships.set(r.id, r);
    byPosition.push(r);
    if (tick()) yield;
  }
  const evidence = new Map<string, Evidence>();
  const ev = c.evidence;
  for (let i = 0; i < ev.id.length; i++) {
    evidence.set(ev.id[i]!, { id: ev.id[i]!, relationshipId: rel.id[ev.relationship[i]!]!, sourceEntityId: ids[ev.source[i]!]!, note: ev.note[i]! });
    if (tick()) yield;
  }
  const adjacency = new Map<string, Relationship[]>();
  const { from, relationships: listed } = c.adjacency;
  for (let i = 0; i < ids.length; i++) {
    if (from[i + 1]! === from[i]!) continue;
    const list: Relationship[] = [];
    for (let j = from[i]!; j < from[i + 1]!; j++) list.push(byPosition[listed[j]!]!);
    adjacency.set(ids[i]!, list);
    if (tick()) yield;
  }
  const manifest: ComputedManifest = { ...c.manifest, releasedEntityIds: c.sorted.map((at) => ids[at]!) };
  return { pack: { version: c.version, manifest, entities, entitiesBySlug: bySlug, relationships, evidence }, adjacency };
}

export type CompileResult = { ok: true; stamp: Stamp } | { ok: false; errors: string[] };

/** Validates the pack in dir in full and writes its compiled folder; an invalid pack writes nothing. */
export async function compilePack(dir: string, packId: string): Promise<CompileResult> {
  // The digests are of the bytes on disk, as a load computes them (an unreadable file fails validation below).
  const digests = Object.fromEntries(await Promise.all(PACK_FILES.map(async (file) => [file, await fileDigest(join(dir, file)).catch(() => '')])));
  const result = await validatePackFiles(await readPackFiles(dir), packId);
  if (!result.ok) return result;
  const compiled = SearchIndex.buildSync(result.pack.entities, { searchCacheEntries: 0 }).compiled();
  const packText = asciiJson(encode(result.pack, GraphIndex.buildSync(result.pack.entities, result.pack.relationships.values())));
  const out = join(dir, COMPILED_DIR);
  mkdirSync(out, { recursive: true });
  // Each file is written under a temporary name and renamed, and the stamp goes last: a compile
  // that stops halfway leaves either the old stamp, whose digests no longer match, or none.
  const write = (name: string, data: string | Uint8Array) => {
    writeFileSync(join(out, `${name}.tmp`), data);
    renameSync(join(out, `${name}.tmp`), join(out, name));
  };
  write(PACK, packText);
  write(NAMES, compiled.names);
  write(DESCRIPTIONS, compiled.descriptions);
  const stamp: Stamp = {
    format: FORMAT,
    fingerprint: fingerprint(),
    packId,
    version: result.pack.version.version,
    compiledAt: new Date().toISOString(),
    files: digests,
    artifacts: { [PACK]: sha256(packText), [NAMES]: sha256(compiled.names), [DESCRIPTIONS]: sha256(compiled.descriptions) },
  };
  write(STAMP, JSON.stringify(stamp, null, 1) + '\n');
  return { ok: true, stamp };
}

/** How a pack was loaded: from its compile, or checked and indexed in full (with the reason). */
export type Opened = { compiled: true } | { compiled: false; reason: string };

/** What a matching compile gives besides the pack: indexes to open instead of build. */
export interface Prebuilt {
  search: CompiledSearch;
  adjacency: Map<string, Relationship[]>;
}

export interface OpenedPack {
  result: PackResult;
  prebuilt?: Prebuilt;
  opened: Opened;
}

async function readStamp(dir: string): Promise<Stamp | string> {
  let text: string;
  try {
    text = await readFile(join(dir, COMPILED_DIR, STAMP), 'utf8');
  } catch {
    return 'not compiled';
  }
  try {
    const parsed = StampSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'compiled stamp unreadable';
  } catch {
    return 'compiled stamp unreadable';
  }
}

/** Whether the stamp describes exactly the files in dir under this code; a reason when it does not. */
async function matches(dir: string, packId: string, stamp: Stamp): Promise<true | string> {
  if (stamp.fingerprint !== fingerprint()) return 'compiled by code that checks or indexes differently';
  // Validation ties a pack to its directory name; a copied folder is checked the full way.
  if (stamp.packId !== packId) return `compiled as pack "${stamp.packId}"`;
  let digests: string[];
  try {
    digests = await Promise.all(PACK_FILES.map((file) => fileDigest(join(dir, file))));
  } catch {
    return 'a pack file is unreadable';
  }
  for (const [i, file] of PACK_FILES.entries()) {
    if (stamp.files[file] !== digests[i]) return `${file} changed since it was compiled`;
  }
  return true;
}

interface Artifacts {
  pack: string;
  search: CompiledSearch;
}

async function readArtifacts(dir: string, stamp: Stamp): Promise<Artifacts | string> {
  const names = [PACK, NAMES, DESCRIPTIONS] as const;
  let buffers: Buffer[];
  try {
    buffers = await Promise.all(names.map((name) => readFile(join(dir, COMPILED_DIR, name))));
  } catch {
    return 'compiled artifacts unreadable';
  }
  const digests = await Promise.all(buffers.map(digest));
  if (names.some((name, i) => stamp.artifacts[name] !== digests[i])) return 'compiled artifacts do not match their stamp';
  return { pack: buffers[0]!.toString('latin1'), search: { names: buffers[1]!, descriptions: buffers[2]! } };
}

/**
 * Reads the pack in dir: from its compile when the stamp matches (see the top of this file),
 * otherwise validated in full. The result is the same either way.
 */
export async function openPack(dir: string, packId: string): Promise<OpenedPack> {
  const stamp = await readStamp(dir);
  let reason = typeof stamp === 'string' ? stamp : await matches(dir, packId, stamp);
  if (reason === true) {
    const artifacts = await readArtifacts(dir, stamp as Stamp);
    if (typeof artifacts !== 'string') {
      try {
        const { pack, adjacency } = await runAsync(decode(artifacts.pack));
        return { result: { ok: true, pack }, prebuilt: { search: artifacts.search, adjacency }, opened: { compiled: true } };
      } catch (error) {
        reason = `compiled pack unreadable (${(error as Error).message})`;
      }
    } else {
      reason = artifacts;
    }
  }
  return { result: await validatePackFiles(await readPackFiles(dir), packId), opened: { compiled: false, reason } };
}
