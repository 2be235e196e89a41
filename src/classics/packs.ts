import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { Claim, Concept, ConflictRecord, GateFixture, Guidance, Misreading, Passage, Product, ReadingPath, Release, Situation, Source, Tradition, UnrecordedStory } from './model.js';
import * as F from './pack-format.js';
import { GateRulesFile, patternsOf, type GateRules } from '../gate/gate.js';
import { hexagramPassages } from './yijing.js';
import { Prefilter } from '../platform/literals.js';
import { ClassifierFile, TextClassifier } from './classifier.js';
import { Precedents, PrecedentsFile, type PrecedentsData } from './precedents.js';

export interface LoadedPack {
  manifest: z.infer<typeof F.PackManifestFile>;
  files: string[];
  /** sha256 over the pack's files (names and bytes, in name order): what a release pins. */
  sha256: string;
}

/** Everything the classics service knows, loaded and cross-checked from packs/classics. */
export interface Knowledge {
  packs: LoadedPack[];
  sources: Map<string, Source>;
  passages: Passage[];
  passageById: Map<string, Passage>;
  passageByLocator: Map<string, Passage>;
  claims: Claim[];
  claimById: Map<string, Claim>;
  claimsByPassage: Map<string, Claim[]>;
  concepts: Concept[];
  conceptById: Map<string, Concept>;
  misreadings: Misreading[];
  gateFixtures: GateFixture[];
  gateRules?: GateRules;
  /** The Gate's learned model (core/gate-model.json): it blocks besides the rules. */
  gateModel?: TextClassifier;
  /** The trusted query's learned answerability model (core/answerability-model.json). */
  answerability?: TextClassifier;
  /** Questions already judged, with the passages that answer them (core/precedents.json), indexed. */
  precedents?: Precedents;
  conflicts: ConflictRecord[];
  conflictsByClaim: Map<string, ConflictRecord[]>;
  situations: Situation[];
  situationById: Map<string, Situation>;
  paths: ReadingPath[];
  products: Product[];
  guidance: Map<string, Guidance>;
  synonyms: string[][];
  /** Stories the classics do not record, each with its patterns compiled. */
  /** Each story with a test per pattern; the tests share one prefilter, so a question is scanned once for all. */
  unrecorded: (UnrecordedStory & { matchers: ((normalized: string) => boolean)[] })[];
  releases: Release[];
  releaseById: Map<string, Release>;
  /** The newest release with status `released`: what the service serves. */
  currentRelease?: Release;
}

export interface LoadResult {
  knowledge: Knowledge;
  errors: string[];
}

const LEVEL_RULES: Record<string, { types: string[]; boundary: string }> = {
  T0: { types: ['TEXT'], boundary: 'direct' },
  T1: { types: ['FACT'], boundary: 'direct' },
  T2: { types: ['INTERPRETATION'], boundary: 'direct' },
  T3: { types: ['INFERENCE'], boundary: 'inferred' },
  T4: { types: ['ACTION', 'OPINION'], boundary: 'applied' },
};

/** The perspective rule counts Unicode code points, not UTF-16 units. */
export function codePoints(text: string): number {
  // Array.from(text).length, without the array: a high surrogate followed by a low one is one
  // code point, any other unit (a lone surrogate too) is one.
  let count = 0;
  for (let i = 0; i < text.length; i++, count++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}
export const PERSPECTIVE_MIN = 50;
export const PERSPECTIVE_MAX = 100;

export function packChecksum(dir: string, files: string[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    hash.update(file).update('\0').update(readFileSync(join(dir, file))).update('\0');
  }
  return hash.digest('hex');
}

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

const listJson = (dir: string, pattern: RegExp) => (existsSync(dir) ? readdirSync(dir).filter((f) => pattern.test(f)).sort() : []);

/** Loads packs/classics and checks every cross-reference. Errors are listed, never thrown. */
export function loadKnowledge(classicsDir: string): LoadResult {
  const errors: string[] = [];
  const storyTests = new Prefilter();
  // Indexed once every passage is known.
  let precedents: PrecedentsData | undefined;
  const k: Knowledge = {
    packs: [],
    sources: new Map(),
    passages: [],
    passageById: new Map(),
    passageByLocator: new Map(),
    claims: [],
    claimById: new Map(),
    claimsByPassage: new Map(),
    concepts: [],
    conceptById: new Map(),
    misreadings: [],
    gateFixtures: [],
    conflicts: [],
    conflictsByClaim: new Map(),
    situations: [],
    situationById: new Map(),
    paths: [],
    products: [],
    guidance: new Map(),
    synonyms: [],
    unrecorded: [],
    releases: [],
    releaseById: new Map(),
  };
  if (!existsSync(classicsDir)) return { knowledge: k, errors: [`${classicsDir} is missing`] };

  const packDirs = readdirSync(classicsDir).filter((d) => d !== 'releases' && statSync(join(classicsDir, d)).isDirectory()).sort();
  for (const packId of packDirs) {
    const dir = join(classicsDir, packId);
    const manifestPath = join(dir, 'pack.json');
    if (!existsSync(manifestPath)) {
      errors.push(`${packId}: pack.json is missing`);
      continue;
    }
    const manifest = readJson(manifestPath, F.PackManifestFile, errors);
    if (!manifest) continue;
    if (manifest.id !== packId) errors.push(`${packId}/pack.json: id ${manifest.id} does not match its folder`);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    k.packs.push({ manifest, files, sha256: packChecksum(dir, files) });
    for (const source of manifest.sources) {
      if (k.sources.has(source.id)) errors.push(`${packId}: duplicate source id ${source.id}`);
      k.sources.set(source.id, { ...source, packId, tradition: source.tradition === 'cross' ? manifest.traditions[0]! : source.tradition });
    }
    const tradition: Tradition = manifest.traditions[0]!;
    const textSource = manifest.sources[0]!.id;

    for (const file of listJson(dir, /^passages(-[a-z]+)?\.json$/)) {
      for (const p of readJson(join(dir, file), F.PassageFile, errors) ?? []) {
        k.passages.push({ id: p.id, packId, sourceId: textSource, tradition, locator: p.locator, text: p.text, en: p.en, title: p.title ?? p.book_title, topics: p.topics });
      }
    }
    for (const file of listJson(dir, /^hexagrams-.*\.json$/)) {
      const commentary = manifest.sources.find((s) => s.source_grade === 'B')?.id ?? textSource;
      for (const h of readJson(join(dir, file), F.HexagramFile, errors) ?? []) {
        k.passages.push(...hexagramPassages(h, { text: textSource, commentary }));
      }
    }
    for (const file of listJson(dir, /^claims(-[a-z0-9]+)?\.json$/)) {
      for (const c of readJson(join(dir, file), F.ClaimFile, errors) ?? []) k.claims.push({ ...c, packId });
    }
    const single = <T>(name: string, schema: z.ZodType<T[]>): T[] => (existsSync(join(dir, name)) ? (readJson(join(dir, name), schema, errors) ?? []) : []);
    k.concepts.push(...(single('concepts.json', F.ConceptFile) as Concept[]));
    k.misreadings.push(...single('misreadings.json', F.MisreadingFile));
    k.gateFixtures.push(...(single('gate-fixtures.json', F.GateFixtureFile) as GateFixture[]));
    k.conflicts.push(...single('conflicts.json', F.ConflictFile));
    if (existsSync(join(dir, 'gate-rules.json'))) {
      const rules = readJson(join(dir, 'gate-rules.json'), GateRulesFile, errors);
      if (rules) {
        // Every pattern, not only the rules': one bad aside would stop the Gate from compiling at load.
        for (const { where, pattern } of patternsOf(rules)) {
          try {
            new RegExp(pattern, 'gu');
          } catch (error) {
            errors.push(`${packId}/gate-rules.json: ${where}: bad pattern (${(error as Error).message})`);
          }
        }
        for (const rule of [...rules.rules, ...(rules.signals ?? [])]) if (!rules.categories[rule.category]) errors.push(`${packId}/gate-rules.json: rule ${rule.id}: unknown category ${rule.category}`);
        if (k.gateRules) errors.push(`${packId}: a second gate-rules.json`);
        k.gateRules = rules;
      }
    }
    for (const [file, key] of [['gate-model.json', 'gateModel'], ['answerability-model.json', 'answerability']] as const) {
      if (!existsSync(join(dir, file))) continue;
      if (k[key]) errors.push(`${packId}: a second ${file}`);
      const model = readJson(join(dir, file), ClassifierFile, errors);
      if (model) k[key] = new TextClassifier(model);
    }
    if (existsSync(join(dir, 'precedents.json'))) {
      if (precedents) errors.push(`${packId}: a second precedents.json`);
      precedents = readJson(join(dir, 'precedents.json'), PrecedentsFile, errors);
    }
    k.situations.push(...(single('situations.json', F.SituationFile) as Situation[]));
    k.paths.push(...(single('paths.json', F.ReadingPathFile) as ReadingPath[]));
    for (const g of single('guidance.json', F.GuidanceFile)) k.guidance.set(g.domain, g);
    if (existsSync(join(dir, 'synonyms.json'))) k.synonyms.push(...(readJson(join(dir, 'synonyms.json'), F.SynonymFile, errors) ?? []));
    for (const story of single('unrecorded.json', F.UnrecordedFile)) {
      try {
        k.unrecorded.push({ ...story, matchers: story.patterns.map((pattern) => storyTests.test(new RegExp(pattern, 'u'))) });
      } catch (e) {
        errors.push(`${packId}: unrecorded story ${story.id} has a pattern that does not compile: ${(e as Error).message}`);
      }
    }
    if (existsSync(join(dir, 'products.json'))) k.products.push(...((readJson(join(dir, 'products.json'), F.ProductFile, errors) ?? []) as Product[]));
  }

  // Indexes, with duplicate and dangling-reference checks.
  for (const p of k.passages) {
    if (k.passageById.has(p.id)) errors.push(`duplicate passage id ${p.id}`);
    if (k.passageByLocator.has(p.locator)) errors.push(`duplicate locator ${p.locator}`);
    k.passageById.set(p.id, p);
    k.passageByLocator.set(p.locator, p);
  }
  for (const c of k.concepts) {
    if (k.conceptById.has(c.id)) errors.push(`duplicate concept id ${c.id}`);
    k.conceptById.set(c.id, c);
  }
  for (const c of k.concepts) {
    for (const r of c.relations) if (!k.conceptById.has(r.target)) errors.push(`concept ${c.id}: relation target ${r.target} does not exist`);
    for (const l of c.key_locators) if (!k.passageByLocator.has(l)) errors.push(`concept ${c.id}: key locator ${l} is not a passage`);
  }
  for (const c of k.claims) {
    if (k.claimById.has(c.id)) errors.push(`duplicate claim id ${c.id}`);
    k.claimById.set(c.id, c);
    const rule = LEVEL_RULES[c.trust_level]!;
    if (!rule.types.includes(c.claim_type) || rule.boundary !== c.truth_boundary) {
      errors.push(`claim ${c.id}: ${c.trust_level} needs claim_type ${rule.types.join('|')} and truth_boundary ${rule.boundary}`);
    }
    if (c.trust_level !== 'T4' && c.evidence.length === 0) errors.push(`claim ${c.id}: ${c.trust_level} claim without evidence`);
    for (const e of c.evidence) {
      const passage = k.passageById.get(e.passage_id);
      if (!passage) {
        errors.push(`claim ${c.id}: evidence passage ${e.passage_id} does not exist`);
        continue;
      }
      if (!passage.text.includes(e.quote)) errors.push(`claim ${c.id}: quote "${e.quote}" is not in ${passage.locator}`);
      const list = k.claimsByPassage.get(passage.id) ?? [];
      list.push(c);
      k.claimsByPassage.set(passage.id, list);
    }
    for (const id of c.concept_ids ?? []) if (!k.conceptById.has(id)) errors.push(`claim ${c.id}: concept ${id} does not exist`);
  }
  for (const m of k.misreadings) {
    for (const id of m.concept_ids) if (!k.conceptById.has(id)) errors.push(`misreading ${m.id}: concept ${id} does not exist`);
    for (const l of m.evidence_locators) if (!k.passageByLocator.has(l)) errors.push(`misreading ${m.id}: evidence ${l} is not a passage`);
  }
  for (const c of k.conflicts) {
    for (const pos of c.positions) {
      for (const id of pos.claim_ids) {
        if (!k.claimById.has(id)) errors.push(`conflict ${c.id}: claim ${id} does not exist`);
        const list = k.conflictsByClaim.get(id) ?? [];
        list.push(c);
        k.conflictsByClaim.set(id, list);
      }
    }
  }
  for (const s of k.situations) {
    if (k.situationById.has(s.id)) errors.push(`duplicate situation id ${s.id}`);
    k.situationById.set(s.id, s);
    for (const [tradition, view] of Object.entries(s.perspectives)) {
      if (!view) continue;
      for (const text of [view.zh, view.en]) {
        const n = codePoints(text);
        if (n < PERSPECTIVE_MIN || n > PERSPECTIVE_MAX) errors.push(`situation ${s.id}: ${tradition} perspective has ${n} characters (50-100): "${text}"`);
      }
      for (const id of view.passage_ids) {
        const passage = k.passageById.get(id);
        if (!passage) errors.push(`situation ${s.id}: ${tradition} passage ${id} does not exist`);
        else if (passage.tradition !== tradition && !(tradition === 'daoist' && passage.packId === 'yijing')) {
          errors.push(`situation ${s.id}: ${tradition} perspective cites ${passage.locator}, a ${passage.tradition} text`);
        }
      }
    }
    for (const id of s.concept_ids ?? []) if (!k.conceptById.has(id)) errors.push(`situation ${s.id}: concept ${id} does not exist`);
  }
  if (k.guidance.size && !k.guidance.has('default')) errors.push('guidance.json: a "default" entry is required');
  const pathIds = new Set<string>();
  for (const path of k.paths) {
    if (pathIds.has(path.id)) errors.push(`duplicate path id ${path.id}`);
    pathIds.add(path.id);
    for (const step of path.steps) if (!k.passageById.has(step.passage_id)) errors.push(`path ${path.id}: passage ${step.passage_id} does not exist`);
  }
  for (const product of k.products) {
    for (const packId of product.defaultPackIds) {
      if (!k.packs.some((p) => p.manifest.id === packId)) errors.push(`product ${product.id}: default pack ${packId} does not exist`);
    }
  }
  const fixtureIds = new Set<string>();
  for (const f of k.gateFixtures) {
    if (fixtureIds.has(f.id)) errors.push(`duplicate gate fixture id ${f.id}`);
    fixtureIds.add(f.id);
  }

  // A model's classes must be what its caller acts on.
  if (k.gateModel) {
    const known = new Set(['allow', ...Object.keys(k.gateRules?.categories ?? {})]);
    if (!k.gateModel.classes.includes('allow')) errors.push('gate-model.json: no "allow" class');
    for (const c of k.gateModel.classes) if (!known.has(c)) errors.push(`gate-model.json: class ${c} is no Gate category`);
  }
  if (k.answerability) {
    const known = new Set(['answerable', 'no_evidence', 'false_premise', 'out_of_scope']);
    if (!k.answerability.classes.includes('answerable')) errors.push('answerability-model.json: no "answerable" class');
    for (const c of k.answerability.classes) if (!known.has(c)) errors.push(`answerability-model.json: class ${c} is not answerable, no_evidence, false_premise or out_of_scope`);
  }
  if (precedents) {
    for (const [i, q] of precedents.questions.entries()) {
      for (const id of q.p) if (!k.passageById.has(id)) errors.push(`precedents.json: questions[${i}]: passage ${id} does not exist`);
    }
    k.precedents = new Precedents(precedents, k.passageById);
  }

  // Releases pin pack versions and checksums.
  const releaseDir = join(classicsDir, 'releases');
  for (const file of listJson(releaseDir, /\.json$/)) {
    const release = readJson(join(releaseDir, file), F.ReleaseFile, errors);
    if (!release) continue;
    if (k.releaseById.has(release.id)) errors.push(`duplicate release id ${release.id}`);
    k.releases.push(release);
    k.releaseById.set(release.id, release);
  }
  k.releases.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  k.currentRelease = [...k.releases].reverse().find((r) => r.status === 'released');
  if (!k.currentRelease) errors.push('no release with status "released" in packs/classics/releases');
  else {
    for (const pinned of k.currentRelease.packs) {
      const pack = k.packs.find((p) => p.manifest.id === pinned.id);
      if (!pack) errors.push(`release ${k.currentRelease.id}: pack ${pinned.id} is missing`);
      else if (pack.manifest.version !== pinned.version) errors.push(`release ${k.currentRelease.id}: pack ${pinned.id} is ${pack.manifest.version}, release pins ${pinned.version}`);
      else if (pack.sha256 !== pinned.sha256) errors.push(`release ${k.currentRelease.id}: pack ${pinned.id} checksum differs from the release (run npm run packs:release)`);
    }
    for (const pack of k.packs) {
      if (!k.currentRelease.packs.some((p) => p.id === pack.manifest.id)) errors.push(`release ${k.currentRelease.id}: pack ${pack.manifest.id} is not in the release`);
    }
  }
  return { knowledge: k, errors };
}
