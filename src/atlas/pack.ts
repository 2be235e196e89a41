/**
 * The atlas pack: four JSON files under packs/atlas/<packId>/, validated into a Pack.
 *
 * The files carry records only. Everything the manifest *reports* (counts, released ids,
 * governance numbers) is computed here from the records, never read from a file, so a stale or
 * hand-edited number can never reach a client.
 *
 * Release rule: an entity is released when its visibility is listed in manifest.filter.visibility.
 * A relationship is released when both endpoints are released; an evidence record when its
 * relationship and its source entity are released. Lookup, search and graph see released records
 * only.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { runAsync, runSync, ticker, type Steps } from './steps.js';

export const ENTITY_KINDS = ['person', 'work', 'place', 'organization', 'movement', 'concept', 'source'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
export const PACK_FILES = ['manifest.json', 'entities.json', 'relationships.json', 'evidence.json'] as const;

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/**
 * Names must come trimmed rather than be trimmed here: with no transforms in the record schemas,
 * a record that passes is used as parsed from JSON instead of as a copy, which on a large pack
 * saves the time and memory of a second set of objects.
 */
const name = z
  .string()
  .min(1)
  .max(300)
  .refine((s) => s.trim() === s, 'no leading or trailing whitespace');
const dateLike = z.union([z.number().int(), z.string().min(1).max(40)]);

export const EntitySchema = z.strictObject({
  id: z.string().min(3).max(200),
  kind: z.enum(ENTITY_KINDS),
  slug: z.string().max(180).regex(slugPattern, 'lowercase letters, digits and single hyphens'),
  displayName: name,
  aliases: z.array(name).max(100),
  description: z.string().max(5000),
  born: dateLike.optional(),
  died: dateLike.optional(),
  year: dateLike.optional(),
  founded: dateLike.optional(),
  dissolved: dateLike.optional(),
  start: dateLike.optional(),
  end: dateLike.optional(),
  country: z.string().max(200).optional(),
  author: z.string().max(300).optional(),
  publisher: z.string().max(300).optional(),
  visibility: z.enum(['public', 'internal']),
  reviewState: z.enum(['reviewed', 'draft']),
});
export type Entity = z.infer<typeof EntitySchema>;

export const RelationshipSchema = z.strictObject({
  id: z.string().min(1).max(200),
  source: z.string().min(1).max(200),
  target: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  label: z.string().min(1).max(300),
  confidence: z.number().min(0).max(1),
  evidenceIds: z.array(z.string().min(1).max(200)).max(100),
  note: z.string().max(5000).optional(),
  candidate: z.boolean(),
  origin: z.enum(['curated', 'ai']),
});
export type Relationship = z.infer<typeof RelationshipSchema>;

export const EvidenceSchema = z.strictObject({
  id: z.string().min(1).max(200),
  relationshipId: z.string().min(1).max(200),
  sourceEntityId: z.string().min(1).max(200),
  note: z.string().max(5000),
});
export type Evidence = z.infer<typeof EvidenceSchema>;

/** The manifest file: identity and release filter. Any other member (e.g. counts written by a build script) is ignored. */
export const ManifestFileSchema = z.object({
  packId: z.string().regex(/^[a-z0-9][a-z0-9-]*$/).max(100),
  packName: z.string().min(1).max(300),
  version: z.string().min(1).max(100),
  channel: z.string().min(1).max(100),
  releasedAt: z.iso.datetime({ offset: true }),
  filter: z.object({ visibility: z.array(z.enum(['public', 'internal'])).min(1) }),
});
export type ManifestFile = z.infer<typeof ManifestFileSchema>;

export interface Governance {
  totalEntities: number;
  published: number;
  withSources: number;
  reviewed: number;
  aiCandidateRelationships: number;
  relationshipsSkippedMissingEndpoint: number;
}

/** What /stats reports as the manifest: every number computed from the records. */
export interface ComputedManifest {
  counts: Record<string, number>;
  releasedEntityIds: string[];
  filter: { visibility: string[] };
  governance: Governance;
}

export interface PackVersion {
  packId: string;
  packName: string;
  version: string;
  channel: string;
  releasedAt: string;
}

/** A validated pack: all records, the released view, and the computed manifest. */
export interface Pack {
  version: PackVersion;
  manifest: ComputedManifest;
  /** Released records, by id. */
  entities: Map<string, Entity>;
  entitiesBySlug: Map<string, Entity>;
  relationships: Map<string, Relationship>;
  evidence: Map<string, Evidence>;
}

export interface RawPackFiles {
  manifest: unknown;
  entities: unknown;
  relationships: unknown;
  evidence: unknown;
}

export type PackResult = { ok: true; pack: Pack } | { ok: false; errors: string[] };

const MAX_REPORTED_ERRORS = 200;
/** The one empty evidence list every relationship without citations points at; frozen, as it is shared. */
export const NO_IDS = Object.freeze([]) as unknown as string[];

function zodProblems(file: string, error: z.ZodError, index?: number): string[] {
  return error.issues.map((issue) => {
    const at = [index === undefined ? '' : `[${index}]`, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('');
    return `${file}${at}: ${issue.message}`;
  });
}

/**
 * Checks each record; a record that fails is reported and its id (if it has one) added to
 * `rejected`. The record schemas transform nothing, so a record that passes is kept as it is.
 */
function* parseRecords<T>(file: string, raw: unknown, schema: z.ZodType<T>, errors: string[], rejected: Set<string>, tick: () => boolean): Steps<T[]> {
  if (!Array.isArray(raw)) {
    errors.push(`${file}: expected a JSON array of records`);
    return [];
  }
  const out: T[] = [];
  for (let index = 0; index < raw.length; index++) {
    const parsed = schema.safeParse(raw[index]);
    if (parsed.success) out.push(raw[index] as T);
    else {
      errors.push(...zodProblems(file, parsed.error, index));
      const id = (raw[index] as { id?: unknown } | null)?.id;
      if (typeof id === 'string') rejected.add(id);
    }
    if (tick()) yield;
  }
  return out;
}

/**
 * Validates the four parsed files into a Pack, or lists every problem found. No I/O. The Pack
 * holds the given records themselves (a reference inside one may be swapped for an equal,
 * shared string), so callers hand over the parsed files rather than keep changing them.
 */
export function validatePack(raw: RawPackFiles, expectedPackId?: string): PackResult {
  return runSync(validationSteps(raw, expectedPackId));
}

/** validatePack as cooperative steps (see steps.ts): the same checks, yielding every few hundred records. */
export function* validationSteps(raw: RawPackFiles, expectedPackId?: string): Steps<PackResult> {
  const tick = ticker();
  const errors: string[] = [];
  const manifestParsed = ManifestFileSchema.safeParse(raw.manifest);
  if (!manifestParsed.success) errors.push(...zodProblems('manifest.json', manifestParsed.error));
  else if (expectedPackId !== undefined && manifestParsed.data.packId !== expectedPackId) {
    errors.push(`manifest.json.packId: "${manifestParsed.data.packId}" does not match the pack directory "${expectedPackId}"`);
  }
  // Records that failed their schema are reported once; references to them are not reported again.
  const rejected = new Set<string>();
  const entities = yield* parseRecords('entities.json', raw.entities, EntitySchema, errors, rejected, tick);
  const relationships = yield* parseRecords('relationships.json', raw.relationships, RelationshipSchema, errors, rejected, tick);
  const evidence = yield* parseRecords('evidence.json', raw.evidence, EvidenceSchema, errors, rejected, tick);

  // Ids name exactly one record across the three files: lookup decides the kind by the id. Each
  // file's own collection of ids answers whether an id is taken (no fourth map of every id).
  const entityById = new Map<string, Entity>();
  const relationshipById = new Map<string, Relationship>();
  const evidenceIds = new Set<string>();
  // JSON.parse gives every occurrence of a string its own copy. References are pointed at the
  // one string of the record they name, and the small vocabularies (types, labels, origins) at
  // one string per value: on a 100,000-entity pack that is about 50 MB less heap to hold and to
  // walk in every garbage collection.
  const vocabulary = new Map<string, string>();
  const shared = (value: string) => {
    const known = vocabulary.get(value);
    if (known !== undefined) return known;
    vocabulary.set(value, value);
    return value;
  };
  const claim = (id: string, file: string) => {
    const previous = entityById.has(id) ? 'entities.json' : relationshipById.has(id) ? 'relationships.json' : evidenceIds.has(id) ? 'evidence.json' : undefined;
    if (previous) errors.push(`${file}: duplicate id "${id}" (already used in ${previous})`);
  };
  const bySlug = new Map<string, Entity>();
  for (const e of entities) {
    claim(e.id, 'entities.json');
    if (!entityById.has(e.id)) entityById.set(e.id, e);
    if (e.id !== `${e.kind}.${e.slug}`) errors.push(`entities.json: id "${e.id}" must be "<kind>.<slug>" = "${e.kind}.${e.slug}"`);
    const sameSlug = bySlug.get(e.slug);
    if (sameSlug && sameSlug.id !== e.id) errors.push(`entities.json: slug "${e.slug}" is used by both "${sameSlug.id}" and "${e.id}" (lookup by slug must be unambiguous)`);
    else bySlug.set(e.slug, e);
    if (tick()) yield;
  }

  const loadedRelationships: Relationship[] = [];
  const skippedRelationshipIds = new Set<string>();
  for (const r of relationships) {
    claim(r.id, 'relationships.json');
    if (!relationshipById.has(r.id)) relationshipById.set(r.id, r);
    r.type = shared(r.type);
    r.label = shared(r.label);
    r.origin = shared(r.origin) as Relationship['origin'];
    // Most relationships cite nothing: they share one empty list instead of holding one each.
    if (r.evidenceIds.length === 0) r.evidenceIds = NO_IDS;
    for (const [i, sid] of r.evidenceIds.entries()) {
      if (rejected.has(sid)) continue;
      const cited = entityById.get(sid);
      if (!cited) errors.push(`relationships.json: "${r.id}" cites evidence "${sid}", which is not an entity`);
      else if (cited.kind !== 'source') errors.push(`relationships.json: "${r.id}" cites evidence "${sid}", which is not a source entity`);
      else r.evidenceIds[i] = cited.id;
    }
    // A dangling endpoint is a known state of a pack under construction: skip and count it.
    const source = entityById.get(r.source);
    const target = entityById.get(r.target);
    if (!source || !target) skippedRelationshipIds.add(r.id);
    else {
      r.source = source.id;
      r.target = target.id;
      loadedRelationships.push(r);
    }
    if (tick()) yield;
  }
  const loadedEvidence: Evidence[] = [];
  for (const ev of evidence) {
    claim(ev.id, 'evidence.json');
    evidenceIds.add(ev.id);
    const relationship = relationshipById.get(ev.relationshipId);
    if (relationship) ev.relationshipId = relationship.id;
    else if (!rejected.has(ev.relationshipId)) errors.push(`evidence.json: "${ev.id}" points at relationship "${ev.relationshipId}", which does not exist`);
    if (!rejected.has(ev.sourceEntityId)) {
      const source = entityById.get(ev.sourceEntityId);
      if (!source) errors.push(`evidence.json: "${ev.id}" points at source "${ev.sourceEntityId}", which is not an entity`);
      else if (source.kind !== 'source') errors.push(`evidence.json: "${ev.id}" points at "${ev.sourceEntityId}", which is not a source entity`);
      else ev.sourceEntityId = source.id;
    }
    if (!skippedRelationshipIds.has(ev.relationshipId)) loadedEvidence.push(ev);
    if (tick()) yield;
  }

  if (errors.length > 0 || !manifestParsed.success) {
    const shown = errors.slice(0, MAX_REPORTED_ERRORS);
    if (errors.length > shown.length) shown.push(`... and ${errors.length - shown.length} more`);
    return { ok: false, errors: shown };
  }
  const pack = yield* assemble(manifestParsed.data, entities, loadedRelationships, loadedEvidence, skippedRelationshipIds.size, tick);
  return { ok: true, pack };
}

function* assemble(manifest: ManifestFile, all: Entity[], relationships: Relationship[], evidence: Evidence[], skipped: number, tick: () => boolean): Steps<Pack> {
  const visible = new Set<string>(manifest.filter.visibility);
  const released = new Map<string, Entity>();
  const bySlug = new Map<string, Entity>();
  for (const e of all) {
    if (!visible.has(e.visibility)) continue;
    released.set(e.id, e);
    bySlug.set(e.slug, e);
    if (tick()) yield;
  }
  const evidencedRelationships = new Set<string>();
  for (const ev of evidence) evidencedRelationships.add(ev.relationshipId);

  const releasedRelationships = new Map<string, Relationship>();
  const withSources = new Set<string>();
  let aiCandidateRelationships = 0;
  for (const r of relationships) {
    if (r.candidate) aiCandidateRelationships++;
    if (r.evidenceIds.length > 0 || evidencedRelationships.has(r.id)) {
      withSources.add(r.source);
      withSources.add(r.target);
    }
    if (released.has(r.source) && released.has(r.target)) {
      // Citations of hidden sources are not shown.
      const showsHidden = r.evidenceIds.some((id) => !released.has(id));
      releasedRelationships.set(r.id, showsHidden ? { ...r, evidenceIds: r.evidenceIds.filter((id) => released.has(id)) } : r);
    }
    if (tick()) yield;
  }
  const releasedEvidence = new Map<string, Evidence>();
  for (const ev of evidence) {
    if (releasedRelationships.has(ev.relationshipId) && released.has(ev.sourceEntityId)) releasedEvidence.set(ev.id, ev);
    if (tick()) yield;
  }

  const counts: Record<string, number> = {};
  for (const kind of ENTITY_KINDS) counts[kind] = 0;
  for (const e of released.values()) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  counts.entities = released.size;
  counts.relationships = releasedRelationships.size;
  counts.evidence = releasedEvidence.size;

  return {
    version: {
      packId: manifest.packId,
      packName: manifest.packName,
      version: manifest.version,
      channel: manifest.channel,
      releasedAt: manifest.releasedAt,
    },
    manifest: {
      counts,
      releasedEntityIds: [...released.keys()].sort(),
      filter: { visibility: [...manifest.filter.visibility] },
      governance: {
        totalEntities: all.length,
        published: released.size,
        withSources: withSources.size,
        reviewed: all.filter((e) => e.reviewState === 'reviewed').length,
        aiCandidateRelationships,
        relationshipsSkippedMissingEndpoint: skipped,
      },
    },
    entities: released,
    entitiesBySlug: bySlug,
    relationships: releasedRelationships,
    evidence: releasedEvidence,
  };
}

function parseFile(file: string, text: string | undefined, errors: string[]): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    errors.push(`${file}: not valid JSON (${(error as Error).message})`);
    return undefined;
  }
}

const unreadable = (file: string, error: unknown, errors: string[]) => {
  errors.push(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  return undefined;
};

const asRaw = ([manifest, entities, relationships, evidence]: unknown[]): RawPackFiles => ({ manifest, entities, relationships, evidence });

/** The pack files as read (undefined where a file could not be read, with the reason in errors). */
export interface PackFiles {
  texts: (string | undefined)[];
  errors: string[];
}

/** Reads the four files of packs/atlas/<packId>/ (dir is that folder) asynchronously, in PACK_FILES order. */
export async function readPackFiles(dir: string): Promise<PackFiles> {
  const errors: string[] = [];
  const texts = await Promise.all(PACK_FILES.map((file) => readFile(join(dir, file), 'utf8').catch((error: unknown) => unreadable(file, error, errors))));
  return { texts, errors };
}

/**
 * Parses and validates files read by readPackFiles without holding the event loop for long: one
 * file parsed per turn, records validated in time slices. An unparsable file is a validation
 * error. The texts are released as they are parsed.
 */
export async function validatePackFiles(files: PackFiles, expectedPackId?: string): Promise<PackResult> {
  const errors = [...files.errors];
  const parsed: unknown[] = [];
  for (const [i, file] of PACK_FILES.entries()) {
    parsed.push(parseFile(file, files.texts[i], errors));
    files.texts[i] = undefined;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (errors.length > 0) return { ok: false, errors };
  return runAsync(validationSteps(asRaw(parsed), expectedPackId));
}

/** Reads and validates packs/atlas/<packId>/ (dir is that folder) in one go, for command-line checks and tests. */
export function loadPackSync(dir: string, expectedPackId?: string): PackResult {
  const errors: string[] = [];
  const parsed = PACK_FILES.map((file) => {
    try {
      return parseFile(file, readFileSync(join(dir, file), 'utf8'), errors);
    } catch (error) {
      return unreadable(file, error, errors);
    }
  });
  if (errors.length > 0) return { ok: false, errors };
  return validatePack(asRaw(parsed), expectedPackId);
}
