#!/usr/bin/env node
// Builds the Design History Atlas pack from its compact, hand-written sources.
//
//   node scripts/atlas-build.mjs
//
// Reads  packs/atlas/design-history/src/entities-<kind>.json and src/relationships.json
// Writes packs/atlas/design-history/{entities,relationships,evidence,manifest}.json
//
// The build is deterministic (sorted records, stable ids, 2-space JSON) and has no
// dependencies. It exits with status 1 and prints every problem it finds when the
// sources are inconsistent (dangling ids, duplicate ids or slugs, confidences outside
// [0, 1], evidence that is not a source entity, kind counts below the minimum, ...).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACK_DIR = path.join(ROOT, 'packs', 'atlas', 'design-history');
const SRC_DIR = path.join(PACK_DIR, 'src');

const MANIFEST = {
  packId: 'design-history',
  packName: 'Design History Atlas',
  version: '1.0.0',
  channel: 'stable',
  releasedAt: '2026-11-01T00:00:00Z',
  filter: { visibility: ['public'] },
};

const KINDS = ['person', 'work', 'place', 'organization', 'movement', 'concept', 'source'];
const MIN_COUNTS = { person: 130, work: 130, place: 80, organization: 90, movement: 65, concept: 75, source: 80 };
const MIN_TOTAL_ENTITIES = 850;
const MIN_RELATIONSHIPS = 2700;
const MAX_AI_CONFIDENCE = 0.6;

// Kind-specific optional fields, in output order.
const KIND_FIELDS = {
  person: ['born', 'died'],
  work: ['year'],
  place: ['country'],
  organization: ['founded', 'dissolved'],
  movement: ['start', 'end'],
  concept: [],
  source: ['author', 'year', 'publisher'],
};
const COMMON_FIELDS = ['id', 'displayName', 'aliases', 'description', 'visibility', 'reviewState'];
const VISIBILITIES = ['public', 'internal'];
const REVIEW_STATES = ['reviewed', 'draft'];

const RELATIONSHIP_LABELS = {
  studied_at: 'studied at',
  taught_at: 'taught at',
  designed: 'designed',
  member_of: 'member of',
  founded: 'founded',
  directed: 'directed',
  worked_for: 'worked for',
  influenced: 'influenced',
  collaborated_with: 'collaborated with',
  located_in: 'located in',
  born_in: 'born in',
  part_of_movement: 'part of movement',
  exemplifies_concept: 'exemplifies concept',
  documented_in: 'documented in',
  manufactured_by: 'manufactured by',
  commissioned_by: 'commissioned by',
  successor_of: 'successor of',
  associated_with: 'associated with',
};

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DATE_RE = /^(\d{4})(?:-(\d{2})-(\d{2}))?$/;
const YEAR_RANGE_RE = /^(\d{4})-(\d{4})$/;

const errors = [];
const fail = (msg) => errors.push(msg);

// ---------------------------------------------------------------- helpers

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    fail(`${path.relative(ROOT, file)}: cannot read JSON (${err.message})`);
    return null;
  }
}

function writeJson(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function byString(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pad(n) {
  return String(n).padStart(6, '0');
}

function isNonEmptyString(v) {
  return typeof v === 'string' && v.trim().length > 0;
}

function checkDate(where, field, v) {
  if (typeof v !== 'string' || !DATE_RE.test(v)) {
    fail(`${where}: ${field} must be "YYYY" or "YYYY-MM-DD" (got ${JSON.stringify(v)})`);
    return null;
  }
  const [, y, m, d] = v.match(DATE_RE);
  if (m !== undefined) {
    const dt = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
    if (dt.getUTCFullYear() !== Number(y) || dt.getUTCMonth() !== Number(m) - 1 || dt.getUTCDate() !== Number(d)) {
      fail(`${where}: ${field} is not a real calendar date (${v})`);
    }
  }
  return v;
}

function checkYear(where, field, v) {
  if (!Number.isInteger(v) || v < 1000 || v > 2100) {
    fail(`${where}: ${field} must be an integer year (got ${JSON.stringify(v)})`);
    return null;
  }
  return v;
}

// Returns [startYear, endYear] for a work year (integer or "YYYY-YYYY").
function checkWorkYear(where, v) {
  if (Number.isInteger(v)) return [checkYear(where, 'year', v), v];
  if (typeof v === 'string' && YEAR_RANGE_RE.test(v)) {
    const [, a, b] = v.match(YEAR_RANGE_RE);
    if (Number(a) > Number(b)) fail(`${where}: year range ${v} runs backwards`);
    return [Number(a), Number(b)];
  }
  fail(`${where}: year must be an integer or "YYYY-YYYY" (got ${JSON.stringify(v)})`);
  return null;
}

// ---------------------------------------------------------------- entities

const entities = [];
const byId = new Map();
const bySlug = new Map();

for (const kind of KINDS) {
  const rel = `src/entities-${kind}.json`;
  const file = path.join(SRC_DIR, `entities-${kind}.json`);
  if (!fs.existsSync(file)) {
    fail(`${rel}: missing`);
    continue;
  }
  const rows = readJson(file);
  if (rows === null) continue;
  if (!Array.isArray(rows)) {
    fail(`${rel}: top level must be an array`);
    continue;
  }
  rows.forEach((row, i) => {
    const where = `${rel}[${i}]${row && row.id ? ` (${row.id})` : ''}`;
    if (!row || typeof row !== 'object' || Array.isArray(row)) {
      fail(`${where}: entity must be an object`);
      return;
    }
    const allowed = new Set([...COMMON_FIELDS, ...KIND_FIELDS[kind]]);
    for (const key of Object.keys(row)) {
      if (!allowed.has(key)) fail(`${where}: unexpected field "${key}" for kind ${kind}`);
    }
    if (!isNonEmptyString(row.id)) {
      fail(`${where}: missing id`);
      return;
    }
    const dot = row.id.indexOf('.');
    const idKind = dot > 0 ? row.id.slice(0, dot) : '';
    const slug = dot > 0 ? row.id.slice(dot + 1) : '';
    if (idKind !== kind) fail(`${where}: id prefix "${idKind}" does not match file kind "${kind}"`);
    if (!SLUG_RE.test(slug)) fail(`${where}: slug "${slug}" must be lowercase ASCII words joined by hyphens`);
    if (byId.has(row.id)) fail(`${where}: duplicate id ${row.id}`);
    if (bySlug.has(slug)) fail(`${where}: duplicate slug "${slug}" (also ${bySlug.get(slug)})`);
    bySlug.set(slug, row.id);

    if (!isNonEmptyString(row.displayName)) fail(`${where}: missing displayName`);
    if (!isNonEmptyString(row.description)) fail(`${where}: missing description`);
    const aliases = row.aliases === undefined ? [] : row.aliases;
    if (!Array.isArray(aliases) || aliases.some((a) => !isNonEmptyString(a))) {
      fail(`${where}: aliases must be an array of non-empty strings`);
    } else {
      const seen = new Set();
      for (const a of aliases) {
        if (seen.has(a)) fail(`${where}: duplicate alias "${a}"`);
        if (a === row.displayName) fail(`${where}: alias repeats the displayName`);
        seen.add(a);
      }
    }
    const visibility = row.visibility ?? 'public';
    const reviewState = row.reviewState ?? 'reviewed';
    if (!VISIBILITIES.includes(visibility)) fail(`${where}: visibility must be one of ${VISIBILITIES.join(', ')}`);
    if (!REVIEW_STATES.includes(reviewState)) fail(`${where}: reviewState must be one of ${REVIEW_STATES.join(', ')}`);

    // kind-specific validation
    if (kind === 'person') {
      const b = row.born !== undefined ? checkDate(where, 'born', row.born) : null;
      const d = row.died !== undefined ? checkDate(where, 'died', row.died) : null;
      if (b && d && d.slice(0, 4) < b.slice(0, 4)) fail(`${where}: died (${d}) before born (${b})`);
      if (b && d && b.length === 10 && d.length === 10 && d < b) fail(`${where}: died (${d}) before born (${b})`);
    } else if (kind === 'work') {
      if (row.year !== undefined) checkWorkYear(where, row.year);
    } else if (kind === 'place') {
      if (row.country !== undefined && !isNonEmptyString(row.country)) fail(`${where}: country must be a string`);
    } else if (kind === 'organization') {
      const f = row.founded !== undefined ? checkYear(where, 'founded', row.founded) : null;
      const d = row.dissolved !== undefined ? checkYear(where, 'dissolved', row.dissolved) : null;
      if (f && d && d < f) fail(`${where}: dissolved (${d}) before founded (${f})`);
    } else if (kind === 'movement') {
      const s = row.start !== undefined ? checkYear(where, 'start', row.start) : null;
      const e = row.end !== undefined ? checkYear(where, 'end', row.end) : null;
      if (s && e && e < s) fail(`${where}: end (${e}) before start (${s})`);
    } else if (kind === 'source') {
      if (row.year !== undefined) checkYear(where, 'year', row.year);
      for (const f of ['author', 'publisher']) {
        if (row[f] !== undefined && !isNonEmptyString(row[f])) fail(`${where}: ${f} must be a non-empty string`);
      }
    }

    const record = { id: row.id, kind, slug, displayName: row.displayName, aliases: Array.isArray(aliases) ? [...aliases] : [], description: row.description };
    for (const f of KIND_FIELDS[kind]) if (row[f] !== undefined) record[f] = row[f];
    record.visibility = visibility;
    record.reviewState = reviewState;
    byId.set(row.id, record);
    entities.push(record);
  });
}

entities.sort((a, b) => byString(a.id, b.id));

const counts = Object.fromEntries(KINDS.map((k) => [k, 0]));
for (const e of entities) counts[e.kind] += 1;
for (const k of KINDS) {
  if (counts[k] < MIN_COUNTS[k]) fail(`kind ${k}: ${counts[k]} entities, minimum is ${MIN_COUNTS[k]}`);
}
if (entities.length < MIN_TOTAL_ENTITIES) fail(`total entities ${entities.length}, minimum is ${MIN_TOTAL_ENTITIES}`);

// ---------------------------------------------------------------- relationships

const relPath = path.join(SRC_DIR, 'relationships.json');
const relRows = fs.existsSync(relPath) ? readJson(relPath) : (fail('src/relationships.json: missing'), null);
const relationships = [];
const relKeys = new Set();

if (Array.isArray(relRows)) {
  relRows.forEach((row, i) => {
    const where = `src/relationships.json[${i}]`;
    if (!Array.isArray(row) || row.length < 5 || row.length > 7) {
      fail(`${where}: row must be [source, type, target, confidence, evidenceIds, note?, "ai"?]`);
      return;
    }
    const [source, type, target, confidence, evidenceIds, note, flag] = row;
    const label = `${where} ${source} ${type} ${target}`;
    if (!byId.has(source)) fail(`${label}: dangling source id ${source}`);
    if (!byId.has(target)) fail(`${label}: dangling target id ${target}`);
    if (source === target) fail(`${label}: source and target are the same entity`);
    if (!Object.hasOwn(RELATIONSHIP_LABELS, type)) fail(`${label}: unknown relationship type "${type}"`);
    if (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence < 0 || confidence > 1) {
      fail(`${label}: confidence ${JSON.stringify(confidence)} outside [0, 1]`);
    }
    if (!Array.isArray(evidenceIds) || evidenceIds.length < 1 || evidenceIds.length > 3) {
      fail(`${label}: evidence must list 1 to 3 source entity ids`);
    } else {
      const seen = new Set();
      for (const ev of evidenceIds) {
        const ent = byId.get(ev);
        if (!ent) fail(`${label}: dangling evidence id ${ev}`);
        else if (ent.kind !== 'source') fail(`${label}: evidence id ${ev} is a ${ent.kind}, not a source entity`);
        if (seen.has(ev)) fail(`${label}: evidence id ${ev} listed twice`);
        seen.add(ev);
      }
    }
    if (note !== undefined && typeof note !== 'string') fail(`${label}: note must be a string`);
    if (flag !== undefined && flag !== 'ai') fail(`${label}: 7th element must be "ai" when present`);
    const isAi = flag === 'ai';
    if (isAi && typeof confidence === 'number' && confidence > MAX_AI_CONFIDENCE) {
      fail(`${label}: AI-suggested candidates must have confidence <= ${MAX_AI_CONFIDENCE}`);
    }
    if (type === 'documented_in' && byId.get(target) && byId.get(target).kind !== 'source') {
      fail(`${label}: documented_in must point to a source entity`);
    }
    const key = `${source}\u0000${type}\u0000${target}`;
    if (relKeys.has(key)) fail(`${label}: duplicate (source, type, target)`);
    relKeys.add(key);
    relationships.push({ source, type, target, confidence, evidenceIds: Array.isArray(evidenceIds) ? [...evidenceIds] : [], note: isNonEmptyString(note) ? note.trim() : undefined, isAi });
  });
} else if (relRows !== null) {
  fail('src/relationships.json: top level must be an array');
}

if (relationships.length < MIN_RELATIONSHIPS) fail(`relationships: ${relationships.length}, minimum is ${MIN_RELATIONSHIPS}`);

// ---------------------------------------------------------------- stop on errors

if (errors.length) {
  console.error(`atlas-build: ${errors.length} problem(s) found, nothing written:`);
  for (const e of errors) console.error(`  - ${e}`);
  process.exit(1);
}

// ---------------------------------------------------------------- assemble output

relationships.sort((a, b) => byString(a.source, b.source) || byString(a.type, b.type) || byString(a.target, b.target));

const relationshipRecords = [];
const evidenceRecords = [];
relationships.forEach((r, i) => {
  const id = `rel.${pad(i + 1)}`;
  const rec = {
    id,
    source: r.source,
    target: r.target,
    type: r.type,
    label: RELATIONSHIP_LABELS[r.type],
    confidence: r.confidence,
    evidenceIds: r.evidenceIds,
  };
  if (r.note !== undefined) rec.note = r.note;
  rec.candidate = r.isAi;
  rec.origin = r.isAi ? 'ai' : 'curated';
  relationshipRecords.push(rec);

  const srcName = byId.get(r.source).displayName;
  const tgtName = byId.get(r.target).displayName;
  for (const ev of r.evidenceIds) {
    evidenceRecords.push({
      id: `ev.${pad(evidenceRecords.length + 1)}`,
      relationshipId: id,
      sourceEntityId: ev,
      note: `${byId.get(ev).displayName} is cited for: ${srcName} ${RELATIONSHIP_LABELS[r.type]} ${tgtName}.`,
    });
  }
});

writeJson(path.join(PACK_DIR, 'entities.json'), entities);
writeJson(path.join(PACK_DIR, 'relationships.json'), relationshipRecords);
writeJson(path.join(PACK_DIR, 'evidence.json'), evidenceRecords);
writeJson(path.join(PACK_DIR, 'manifest.json'), MANIFEST);

const aiCount = relationshipRecords.filter((r) => r.candidate).length;
console.log(`atlas-build: wrote ${path.relative(ROOT, PACK_DIR)}`);
console.log(`  entities      ${entities.length} (${KINDS.map((k) => `${k} ${counts[k]}`).join(', ')})`);
console.log(`  relationships ${relationshipRecords.length} (${aiCount} AI candidates)`);
console.log(`  evidence      ${evidenceRecords.length}`);
