/**
 * The multi-role analysis behind POST /evolution/agents/run: three deterministic readers of the
 * served packs. Nothing here is generated or guessed: every finding is a fact computed from the
 * passages, claims, concepts and misreadings, and points at the ids it is about. Read-only: the
 * knowledge is never changed. The same object on the same release gives the same findings.
 *
 * - philologist reads the passages: locators that do not resolve, quotes that are not verbatim,
 *   passages without an English rendering, key locators that are not passages, source grades.
 * - philosopher reads the concepts' relations: missing targets, non_equivalent pairs that are not
 *   declared both ways, and non_equivalent pairs with an everyday notion that no misreading guards.
 * - editor reads the claims: trust levels, claims without evidence, contested claims, concepts
 *   without claims, and key passages that no claim about the concept cites.
 *
 * Findings of severity `issue` are evidence that something should change; a proposal is drafted
 * only from them. `note` findings are observations and never produce a proposal.
 */
import type { Claim, Concept, Passage } from '../../classics/model.js';
import type { Knowledge } from '../../classics/packs.js';

export type Role = 'philologist' | 'philosopher' | 'editor';
export type ObjectKind = 'concept' | 'claim' | 'passage';

export interface Finding {
  role: Role;
  kind: string;
  severity: 'issue' | 'note';
  refs: string[];
  detail: string;
}

export interface RoleReport {
  role: Role;
  reads: string;
  findings: Finding[];
}

export interface ProposalDraft {
  summary: string;
  findings: Finding[];
  evidence: string[];
  suggestedActions: string[];
}

export interface Analysis {
  objectId: string;
  objectKind: ObjectKind;
  roles: RoleReport[];
  evidence: string[];
  proposal: ProposalDraft | null;
}

/** What a run looks at: the object and the passages, claims and concepts around it. */
interface Scope {
  kind: ObjectKind;
  passages: Passage[];
  claims: Claim[];
  concepts: Concept[];
}

/** Which kind of object an id names in the served release, if any. */
export function objectKindOf(k: Knowledge, id: string): ObjectKind | undefined {
  if (k.conceptById.has(id)) return 'concept';
  if (k.claimById.has(id)) return 'claim';
  if (k.passageById.has(id)) return 'passage';
  return undefined;
}

const defined = <T>(x: T | undefined): x is T => x !== undefined;
const unique = <T>(xs: T[]) => [...new Set(xs)];

function scopeOf(k: Knowledge, id: string, kind: ObjectKind): Scope {
  if (kind === 'concept') {
    const concept = k.conceptById.get(id)!;
    return {
      kind,
      concepts: [concept],
      passages: unique(concept.key_locators.map((l) => k.passageByLocator.get(l)).filter(defined)),
      claims: k.claims.filter((c) => c.concept_ids?.includes(id)),
    };
  }
  if (kind === 'claim') {
    const claim = k.claimById.get(id)!;
    return {
      kind,
      claims: [claim],
      passages: unique(claim.evidence.map((e) => k.passageById.get(e.passage_id)).filter(defined)),
      concepts: (claim.concept_ids ?? []).map((c) => k.conceptById.get(c)).filter(defined),
    };
  }
  const passage = k.passageById.get(id)!;
  return {
    kind,
    passages: [passage],
    claims: k.claimsByPassage.get(id) ?? [],
    concepts: k.concepts.filter((c) => c.key_locators.includes(passage.locator)),
  };
}

function philologist(k: Knowledge, s: Scope): Finding[] {
  const out: Finding[] = [];
  const f = (kind: string, severity: Finding['severity'], refs: string[], detail: string) => out.push({ role: 'philologist', kind, severity, refs, detail });
  for (const p of s.passages) {
    if (k.passageByLocator.get(p.locator)?.id !== p.id) f('locator_unresolved', 'issue', [p.id], `locator "${p.locator}" does not resolve back to passage ${p.id}`);
    if (!p.en) f('rendering_missing', 'issue', [p.id], `${p.locator} has no English rendering`);
    const source = k.sources.get(p.sourceId);
    f('source_grade', 'note', [p.id], `${p.locator} comes from ${source?.title_en ?? p.sourceId}, source grade ${source?.source_grade ?? 'unknown'}`);
  }
  for (const c of s.claims) {
    for (const e of c.evidence) {
      const passage = k.passageById.get(e.passage_id);
      if (!passage) f('evidence_passage_missing', 'issue', [c.id], `claim ${c.id} cites passage ${e.passage_id}, which is not in the release`);
      else if (!passage.text.includes(e.quote)) f('quote_not_verbatim', 'issue', [c.id, passage.id], `claim ${c.id} quotes "${e.quote}", which is not in ${passage.locator}`);
    }
  }
  for (const concept of s.kind === 'concept' ? s.concepts : []) {
    for (const l of concept.key_locators) {
      if (!k.passageByLocator.has(l)) f('key_locator_missing', 'issue', [concept.id], `key locator "${l}" of ${concept.id} is not a passage of the release`);
    }
  }
  return out;
}

function philosopher(k: Knowledge, s: Scope): Finding[] {
  const out: Finding[] = [];
  const f = (kind: string, severity: Finding['severity'], refs: string[], detail: string) => out.push({ role: 'philosopher', kind, severity, refs, detail });
  for (const c of s.concepts) {
    const counts = c.relations.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.type]: (acc[r.type] ?? 0) + 1 }), {});
    f('relations', 'note', [c.id], `${c.id} has ${c.relations.length} relations (${Object.entries(counts).map(([t, n]) => `${t} ${n}`).join(', ') || 'none'})`);
    for (const r of c.relations) {
      const target = k.conceptById.get(r.target);
      if (!target) {
        f('relation_target_missing', 'issue', [c.id], `${c.id} ${r.type} ${r.target}: the target is not a concept of the release`);
        continue;
      }
      if (r.type !== 'non_equivalent') continue;
      f('non_equivalent', 'note', [c.id, target.id], `${c.zh} (${c.en}) must not be equated with ${target.zh} (${target.en})`);
      if (!target.relations.some((x) => x.type === 'non_equivalent' && x.target === c.id)) {
        f('non_equivalence_not_reciprocal', 'issue', [c.id, target.id], `${c.id} is non_equivalent to ${target.id}, but ${target.id} does not say so back`);
      }
      const guarded = k.misreadings.some((m) => m.concept_ids.includes(c.id) && m.concept_ids.includes(target.id));
      if (target.tradition === 'common' && c.tradition !== 'common' && !guarded) {
        f('non_equivalence_unguarded', 'issue', [c.id, target.id], `no misreading guards against equating ${c.id} with the everyday notion ${target.id}`);
      }
    }
  }
  return out;
}

function editor(k: Knowledge, s: Scope): Finding[] {
  const out: Finding[] = [];
  const f = (kind: string, severity: Finding['severity'], refs: string[], detail: string) => out.push({ role: 'editor', kind, severity, refs, detail });
  if (s.claims.length) {
    const levels = s.claims.reduce<Record<string, number>>((acc, c) => ({ ...acc, [c.trust_level]: (acc[c.trust_level] ?? 0) + 1 }), {});
    const summary = Object.keys(levels).sort().map((l) => `${l} ${levels[l]}`).join(', ');
    f('trust_levels', 'note', s.claims.map((c) => c.id), `${s.claims.length} claims: ${summary}`);
  }
  for (const c of s.claims) {
    if (c.trust_level !== 'T4' && c.evidence.length === 0) f('evidence_missing', 'issue', [c.id], `claim ${c.id} is ${c.trust_level} but cites no evidence`);
    if (c.trust_level === 'T3' && unique(c.evidence.map((e) => e.passage_id)).length < 2) {
      f('inference_single_passage', 'note', [c.id], `claim ${c.id} is an inference (T3) resting on one passage`);
    }
    for (const conflict of k.conflictsByClaim.get(c.id) ?? []) {
      f('contested_claim', 'issue', [c.id], `claim ${c.id} is a position in the ${conflict.severity} conflict ${conflict.id} (${conflict.topic_en})`);
    }
  }
  for (const concept of s.kind === 'concept' ? s.concepts : []) {
    if (!s.claims.length) f('concept_without_claims', 'issue', [concept.id], `no claim of the release is about ${concept.id}`);
    for (const l of concept.key_locators) {
      const passage = k.passageByLocator.get(l);
      if (!passage) continue;
      const bound = (k.claimsByPassage.get(passage.id) ?? []).some((c) => c.concept_ids?.includes(concept.id));
      if (!bound) f('key_passage_unbound', 'issue', [concept.id, passage.id], `key passage ${l} of ${concept.id} is cited by no claim about ${concept.id}`);
    }
  }
  return out;
}

/** What a reviewer would do about each kind of issue; the wording is fixed, the object comes from the finding. */
const ACTIONS: Record<string, (f: Finding) => string> = {
  locator_unresolved: (f) => `check the locator of ${f.refs[0]}`,
  rendering_missing: (f) => `add an English rendering to ${f.refs[0]}`,
  evidence_passage_missing: (f) => `repair the evidence of ${f.refs[0]}`,
  quote_not_verbatim: (f) => `make the quote of ${f.refs[0]} verbatim from ${f.refs[1]}`,
  key_locator_missing: (f) => `fix the key locators of ${f.refs[0]}`,
  relation_target_missing: (f) => `fix the relations of ${f.refs[0]}`,
  non_equivalence_not_reciprocal: (f) => `declare ${f.refs[1]} non_equivalent to ${f.refs[0]}, or review the relation`,
  non_equivalence_unguarded: (f) => `consider a misreading that guards ${f.refs[0]} against ${f.refs[1]}`,
  evidence_missing: (f) => `bind ${f.refs[0]} to evidence or lower its trust level`,
  contested_claim: (f) => `review ${f.refs[0]} against its conflict`,
  concept_without_claims: (f) => `write evidence-bound claims about ${f.refs[0]}`,
  key_passage_unbound: (f) => `bind a claim about ${f.refs[0]} to ${f.refs[1]}`,
};

export function analyse(k: Knowledge, objectId: string, kind: ObjectKind): Analysis {
  const scope = scopeOf(k, objectId, kind);
  const roles: RoleReport[] = [
    { role: 'philologist', reads: `${scope.passages.length} passages, ${scope.claims.length} claims' quotes`, findings: philologist(k, scope) },
    { role: 'philosopher', reads: `${scope.concepts.length} concepts and their relations`, findings: philosopher(k, scope) },
    { role: 'editor', reads: `${scope.claims.length} claims and their trust levels`, findings: editor(k, scope) },
  ];
  const issues = roles.flatMap((r) => r.findings.filter((f) => f.severity === 'issue'));
  const evidence = unique(issues.flatMap((f) => f.refs));
  const proposal: ProposalDraft | null = issues.length
    ? {
        summary: `${issues.length} finding${issues.length === 1 ? '' : 's'} on ${objectId}: ${unique(issues.map((f) => f.kind)).join(', ')}`,
        findings: issues,
        evidence,
        suggestedActions: unique(issues.map((f) => ACTIONS[f.kind]?.(f) ?? `review ${f.refs.join(', ')}`)),
      }
    : null;
  return { objectId, objectKind: kind, roles, evidence, proposal };
}
