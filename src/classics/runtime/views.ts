import type { Library } from '../library.js';
import type { Claim, Concept, ConflictRecord, Misreading, Passage, Source } from '../model.js';
import { TRUST_ORDER } from '../model.js';
import { bindClaims } from '../tq/claims.js';
import { validateCitations, type Citation } from '../tq/citations.js';
import type { ClaimView, ConceptRef, PassageRef, RelationView, SourceView } from './schemas.js';

/**
 * How the runtime shows knowledge: small views of passages, claims, concepts and sources in one
 * language, filtered to the packs in scope. The cross-tradition core (concepts, situations,
 * paths, conflicts, misreadings) is the map and is always readable; passages, claims and sources
 * are evidence and belong to a pack, so only those of packs in scope are shown.
 */
export interface View {
  lib: Library;
  lang: 'zh' | 'en';
  packIds: ReadonlySet<string>;
}

export const inScope = (view: View, packId: string) => view.packIds.has(packId);

export const passageRef = (p: Passage): PassageRef => ({
  id: p.id,
  locator: p.locator,
  sourceId: p.sourceId,
  packId: p.packId,
  tradition: p.tradition,
  text: p.text,
  en: p.en ?? null,
});

export const claimView = (view: View, c: Claim): ClaimView => ({
  id: c.id,
  statement: view.lang === 'zh' ? c.statement_zh : c.statement_en,
  claim_type: c.claim_type,
  trust_level: c.trust_level,
  truth_boundary: c.truth_boundary,
  perspective: c.perspective,
  evidenceIds: c.evidence.map((e) => e.passage_id),
  conceptIds: c.concept_ids ?? [],
});

export const conceptName = (view: View, c: Concept) => (view.lang === 'zh' ? c.zh : c.en);

export const conceptRef = (view: View, c: Concept): ConceptRef => ({
  id: c.id,
  zh: c.zh,
  en: c.en,
  pinyin: c.pinyin,
  tradition: c.tradition,
  definition: view.lang === 'zh' ? c.definition_zh : c.definition_en,
});

/** A concept's typed relations: those it declares and those other concepts declare about it. */
export function relationsOf(view: View, concept: Concept): RelationView[] {
  const k = view.lib.knowledge;
  const label = (id: string) => {
    const c = k.conceptById.get(id);
    return c ? `${c.zh} ${c.en}` : id;
  };
  const out: RelationView[] = concept.relations.map((r) => ({ source: concept.id, type: r.type, target: r.target, targetLabel: label(r.target), note: r.note, direction: 'outgoing' }));
  for (const other of k.concepts) {
    if (other.id === concept.id) continue;
    for (const r of other.relations) {
      if (r.target === concept.id) out.push({ source: other.id, type: r.type, target: concept.id, targetLabel: label(other.id), note: r.note, direction: 'incoming' });
    }
  }
  return out;
}

/** The concept relations declared between two concepts, in either direction. */
export function relationsBetween(k: Library['knowledge'], a: string, b: string) {
  const out: { source: string; target: string; type: Concept['relations'][number]['type']; note: string }[] = [];
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const r of k.conceptById.get(from)?.relations ?? []) if (r.target === to) out.push({ source: from, target: to, type: r.type, note: r.note });
  }
  return out;
}

export const sourceView = (lib: Library, s: Source): SourceView => ({
  id: s.id,
  packId: s.packId,
  title: s.title,
  title_en: s.title_en,
  tradition: s.tradition,
  edition: s.edition,
  source_grade: s.source_grade,
  license: s.license,
  provenance: s.provenance ?? null,
  passageCount: lib.knowledge.passages.filter((p) => p.sourceId === s.id).length,
});

export const misreadingView = (view: View, m: Misreading) => ({
  id: m.id,
  wrong: view.lang === 'zh' ? m.wrong_zh : m.wrong_en,
  why: view.lang === 'zh' ? m.why_zh : m.why_en,
  correction: view.lang === 'zh' ? m.correction_zh : m.correction_en,
  conceptIds: m.concept_ids,
  evidenceLocators: m.evidence_locators,
});

export const conflictView = (view: View, c: ConflictRecord) => ({
  id: c.id,
  severity: c.severity,
  topic: view.lang === 'zh' ? c.topic_zh : c.topic_en,
  note: view.lang === 'zh' ? c.note_zh : c.note_en,
  positions: c.positions.map((p) => ({ label: view.lang === 'zh' ? p.label_zh : p.label_en, claimIds: p.claim_ids })),
});

/** A claim of a pack in scope whose evidence is all in scope. */
export const claimInScope = (view: View, c: Claim) =>
  inScope(view, c.packId) && c.evidence.every((e) => inScope(view, view.lib.knowledge.passageById.get(e.passage_id)?.packId ?? ''));

/** Distinct claims in scope, in the order given. */
export function distinctInScope(view: View, claims: Iterable<Claim>): Claim[] {
  const seen = new Set<string>();
  const kept: Claim[] = [];
  for (const c of claims) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    if (claimInScope(view, c)) kept.push(c);
  }
  return kept;
}

/** Claims in scope, strongest trust first, at most `max`. */
export function claimsInScope(view: View, claims: Iterable<Claim>, max = 20): Claim[] {
  const kept = distinctInScope(view, claims);
  kept.sort((a, b) => TRUST_ORDER.indexOf(a.trust_level) - TRUST_ORDER.indexOf(b.trust_level) || a.id.localeCompare(b.id));
  return kept.slice(0, max);
}

/** Claims about a concept (its concept_ids name it). */
export function claimsAbout(lib: Library, conceptId: string): Claim[] {
  return lib.knowledge.claims.filter((c) => c.concept_ids?.includes(conceptId));
}

/** Citation Validate over the claims: only verbatim quotes of their own passages are cited. */
export function citationsOf(lib: Library, claims: Claim[]): Citation[] {
  return validateCitations(bindClaims(claims, lib.knowledge), lib.knowledge).citations;
}

/** The key passages of a concept that are in scope. */
export function keyPassages(view: View, concept: Concept): Passage[] {
  const k = view.lib.knowledge;
  return concept.key_locators.map((l) => k.passageByLocator.get(l)).filter((p): p is Passage => !!p && inScope(view, p.packId));
}

/** Conflicts that any of the claims take part in. */
export function conflictsOf(lib: Library, claims: Claim[]): ConflictRecord[] {
  const found = new Map<string, ConflictRecord>();
  for (const c of claims) for (const conflict of lib.knowledge.conflictsByClaim.get(c.id) ?? []) found.set(conflict.id, conflict);
  return [...found.values()];
}

/** Any object of the served knowledge by id: graph nodes, reading paths and conflicts. */
export function knowledgeObject(lib: Library, id: string): { type: 'concept' | 'passage' | 'claim' | 'source' | 'situation' | 'path' | 'conflict'; label: string } | undefined {
  const node = lib.graph.nodes.get(id);
  if (node) return { type: node.type, label: node.label };
  const path = lib.knowledge.paths.find((p) => p.id === id);
  if (path) return { type: 'path', label: path.title_en };
  const conflict = lib.knowledge.conflicts.find((c) => c.id === id);
  if (conflict) return { type: 'conflict', label: conflict.topic_en };
  return undefined;
}
