import { ServiceError } from '../../platform/errors.js';
import type { Claim, ConflictRecord, Passage } from '../model.js';
import type { CompareResult, Dimension } from './schemas.js';
import {
  citationsOf,
  claimsAbout,
  claimsInScope,
  claimView,
  distinctInScope,
  conceptName,
  inScope,
  keyPassages,
  relationsBetween,
  type View,
} from './views.js';

type Compare = CompareResult['compare'];
type Subject = Compare['subject'];

/** The first sentence of a passage (at most 60 characters): still a verbatim substring of it. */
export function excerpt(text: string): string {
  const sentence = /^[^。！？；!?;]+[。！？；!?;]?/u.exec(text)?.[0] ?? text;
  return Array.from(sentence).slice(0, 60).join('');
}

/** What one side of a comparison stands for: its concepts, passages, claims and tradition. */
interface Side {
  id: string;
  type: string;
  label: string;
  tradition: string;
  gloss: string;
  conceptIds: string[];
  passages: Passage[];
  claims: Claim[];
}

function side(view: View, id: string): Side {
  const { lib, lang } = view;
  const k = lib.knowledge;
  const node = lib.graph.nodes.get(id);
  if (!node) throw new ServiceError(404, 'NOT_FOUND', `no object ${id} to compare`);
  const scoped = (ps: (Passage | undefined)[]) => ps.filter((p): p is Passage => !!p && inScope(view, p.packId));
  switch (node.type) {
    case 'concept': {
      const c = k.conceptById.get(id)!;
      return { id, type: 'concept', label: `${c.zh} ${c.en}`, tradition: c.tradition, gloss: lang === 'zh' ? c.definition_zh : c.definition_en, conceptIds: [id], passages: keyPassages(view, c), claims: claimsAbout(lib, id) };
    }
    case 'passage': {
      const p = k.passageById.get(id)!;
      if (!inScope(view, p.packId)) throw new ServiceError(404, 'NOT_FOUND', `passage ${id} belongs to pack ${p.packId}, outside knowledgePackIds`);
      return { id, type: 'passage', label: p.locator, tradition: p.tradition, gloss: p.text, conceptIds: lib.retrieval.conceptsOf(id), passages: [p], claims: k.claimsByPassage.get(id) ?? [] };
    }
    case 'claim': {
      const c = k.claimById.get(id)!;
      if (!inScope(view, c.packId)) throw new ServiceError(404, 'NOT_FOUND', `claim ${id} belongs to pack ${c.packId}, outside knowledgePackIds`);
      return { id, type: 'claim', label: id, tradition: c.perspective, gloss: lang === 'zh' ? c.statement_zh : c.statement_en, conceptIds: c.concept_ids ?? [], passages: scoped(c.evidence.map((e) => k.passageById.get(e.passage_id))), claims: [c] };
    }
    case 'source': {
      const s = k.sources.get(id)!;
      if (!inScope(view, s.packId)) throw new ServiceError(404, 'NOT_FOUND', `source ${id} belongs to pack ${s.packId}, outside knowledgePackIds`);
      return { id, type: 'source', label: s.title_en, tradition: s.tradition, gloss: `${s.title} (${s.edition})`, conceptIds: [], passages: [], claims: [] };
    }
    case 'situation': {
      const s = k.situationById.get(id)!;
      const passages = scoped(Object.values(s.perspectives).flatMap((v) => (v?.passage_ids ?? []).map((pid) => k.passageById.get(pid))));
      return {
        id,
        type: 'situation',
        label: lang === 'zh' ? s.title_zh : s.title_en,
        tradition: 'cross',
        gloss: lang === 'zh' ? s.tension_zh : s.tension_en,
        conceptIds: s.concept_ids ?? [],
        passages,
        claims: passages.flatMap((p) => k.claimsByPassage.get(p.id) ?? []),
      };
    }
  }
}

function evidence(view: View, passages: Passage[], claims: Claim[]): Dimension['evidence'] {
  const seen = new Set<string>();
  const ps = passages.filter((p) => inScope(view, p.packId) && !seen.has(p.id) && seen.add(p.id)).slice(0, 4);
  return {
    passages: ps.map((p) => ({ id: p.id, locator: p.locator, quote: excerpt(p.text) })),
    claims: distinctInScope(view, claims).slice(0, 4).map((c) => ({ id: c.id, statement: view.lang === 'zh' ? c.statement_zh : c.statement_en, trust_level: c.trust_level })),
  };
}

/** Evidence for a statement about concepts: claims about all of them first, then about any; their key passages. */
const conceptEvidence = (view: View, ids: string[]) => {
  const concepts = ids.map((id) => view.lib.knowledge.conceptById.get(id)).filter((c) => !!c);
  const about = ids.flatMap((id) => claimsAbout(view.lib, id));
  const aboutAll = about.filter((c) => ids.every((id) => c.concept_ids?.includes(id)));
  return evidence(
    view,
    concepts.flatMap((c) => keyPassages(view, c)),
    [...claimsInScope(view, aboutAll, 4), ...claimsInScope(view, about, 50)],
  );
};

/** The severity of a recorded conflict that sets a claim of one side against a claim of the other. */
function severityBetween(k: View['lib']['knowledge'], left: Claim[], right: Claim[]): Compare['severity'] {
  const l = new Set(left.map((c) => c.id));
  const r = new Set(right.map((c) => c.id));
  const across = (c: ConflictRecord) =>
    c.positions.some((p, i) => p.claim_ids.some((id) => l.has(id)) && c.positions.some((q, j) => j !== i && q.claim_ids.some((id) => r.has(id))));
  const conflicts = [...new Set([...left, ...right].flatMap((c) => k.conflictsByClaim.get(c.id) ?? []))].filter(across);
  return conflicts.some((c) => c.severity === 'significant') ? 'significant' : conflicts.length ? 'minor' : 'none';
}

/**
 * Two objects side by side. Similarity comes only from what the packs declare (similar and part_of
 * relations, shared concepts, shared evidence, a shared tradition), difference from contrasts,
 * traditions and each side's own gloss, non-equivalence from non_equivalent relations between the
 * concepts the two stand for. When the packs mark them non_equivalent, every similarity carries a
 * caveat and `equivalence` says so: a comparison never equates them.
 */
function compareSides(view: View, left: Side, right: Side, subject: Omit<Subject, 'left' | 'right'>): { compare: Compare; claims: Claim[] } {
  const k = view.lib.knowledge;
  const name = (id: string) => {
    const c = k.conceptById.get(id);
    return c ? conceptName(view, c) : id;
  };
  const similarity: Dimension[] = [];
  const difference: Dimension[] = [];
  const nonEquivalence: Dimension[] = [];
  // Relations between what one side stands for and the other does not (a concept both share is a similarity, not a pair).
  const onlyLeft = left.conceptIds.filter((id) => !right.conceptIds.includes(id));
  const onlyRight = right.conceptIds.filter((id) => !left.conceptIds.includes(id));
  const pairs = onlyLeft.flatMap((a) => onlyRight.flatMap((b) => relationsBetween(k, a, b)));
  const seenPair = new Set<string>();
  for (const r of pairs) {
    // A relation both concepts declare about each other is one dimension.
    const key = `${[r.source, r.target].sort().join('|')}|${r.type}`;
    if (seenPair.has(key)) continue;
    seenPair.add(key);
    const statement = `${name(r.source)} – ${name(r.target)}: ${r.note}`;
    const dim: Dimension = { dimension: `relation.${r.type}`, statement, evidence: conceptEvidence(view, [r.source, r.target]), caveat: null };
    if (r.type === 'non_equivalent') nonEquivalence.push(dim);
    else if (r.type === 'contrasts') difference.push(dim);
    else similarity.push(dim);
  }

  const shared = left.conceptIds.filter((id) => right.conceptIds.includes(id));
  if (shared.length && left.type !== 'concept') {
    similarity.push({ dimension: 'shared-concept', statement: `Both concern ${shared.map(name).join(', ')}.`, evidence: conceptEvidence(view, shared), caveat: null });
  }
  const sharedPassages = left.passages.filter((p) => right.passages.some((q) => q.id === p.id));
  if (sharedPassages.length) {
    similarity.push({
      dimension: 'shared-evidence',
      statement: `Both rest on ${sharedPassages.map((p) => p.locator).join(', ')}.`,
      evidence: evidence(view, sharedPassages, sharedPassages.flatMap((p) => k.claimsByPassage.get(p.id) ?? [])),
      caveat: null,
    });
  }
  const bothSides = evidence(view, [...left.passages.slice(0, 2), ...right.passages.slice(0, 2)], [...claimsInScope(view, left.claims, 2), ...claimsInScope(view, right.claims, 2)]);
  if (left.tradition === right.tradition && left.tradition !== 'cross' && left.tradition !== 'common') {
    similarity.push({ dimension: 'tradition', statement: `Both belong to the ${left.tradition} tradition.`, evidence: bothSides, caveat: null });
  } else {
    difference.push({ dimension: 'tradition', statement: `${left.label} is ${left.tradition}; ${right.label} is ${right.tradition}.`, evidence: bothSides, caveat: null });
  }
  difference.push({ dimension: 'definition', statement: `${left.label}: ${left.gloss} / ${right.label}: ${right.gloss}`, evidence: bothSides, caveat: null });

  const nonEquivalent = nonEquivalence.length > 0;
  if (nonEquivalent) {
    const caveat = `The packs mark ${nonEquivalence.map((d) => d.statement.split(':')[0]).join('; ')} as non-equivalent: alike in this respect, never the same.`;
    for (const d of similarity) d.caveat = caveat;
  }

  const leftClaims = claimsInScope(view, left.claims, 5);
  const rightClaims = claimsInScope(view, right.claims, 5);
  const claims = [...leftClaims, ...rightClaims.filter((c) => !leftClaims.includes(c))];
  return {
    compare: {
      subject: { ...subject, left: { id: left.id, type: left.type, label: left.label }, right: { id: right.id, type: right.type, label: right.label } },
      equivalence: nonEquivalent ? 'non_equivalent' : 'not_asserted',
      similarity,
      difference,
      nonEquivalence,
      positions: [
        { label: left.label, objectId: left.id, claimIds: leftClaims.map((c) => c.id) },
        { label: right.label, objectId: right.id, claimIds: rightClaims.map((c) => c.id) },
      ],
      claims: claims.map((c) => claimView(view, c)),
      severity: severityBetween(k, claimsInScope(view, left.claims, 200), claimsInScope(view, right.claims, 200)),
    },
    claims,
  };
}

/** A recorded conflict: its positions side by side; a significant one is never merged. */
function compareConflict(view: View, conflict: ConflictRecord): { compare: Compare; claims: Claim[] } {
  const k = view.lib.knowledge;
  const zh = view.lang === 'zh';
  const topic = zh ? conflict.topic_zh : conflict.topic_en;
  const note = zh ? conflict.note_zh : conflict.note_en;
  const positions = conflict.positions.map((p, i) => {
    const claims = claimsInScope(
      view,
      p.claim_ids.map((id) => k.claimById.get(id)).filter((c) => !!c),
      10,
    );
    const passages = claims.flatMap((c) => c.evidence.map((e) => k.passageById.get(e.passage_id)!).filter(Boolean));
    return { index: i + 1, label: zh ? p.label_zh : p.label_en, claims, passages };
  });
  const allClaims = positions.flatMap((p) => p.claims);
  const allPassages = positions.flatMap((p) => p.passages);
  const sideOf = (i: number) => ({ id: `${conflict.id}#${i + 1}`, type: 'position', label: positions[i]?.label ?? '' });
  return {
    compare: {
      subject: { kind: 'conflict', relationId: conflict.id, relationType: `conflict.${conflict.severity}`, note, left: sideOf(0), right: sideOf(1) },
      equivalence: conflict.severity === 'significant' ? 'non_equivalent' : 'not_asserted',
      similarity: [{ dimension: 'conflict.topic', statement: zh ? `各方都在回答：${topic}` : `Every position addresses ${topic}.`, evidence: evidence(view, allPassages, allClaims), caveat: null }],
      difference: positions.map((p) => ({
        dimension: 'conflict.position',
        statement: `${p.label}${p.claims[0] ? `: ${zh ? p.claims[0].statement_zh : p.claims[0].statement_en}` : ''}`,
        evidence: evidence(view, p.passages, p.claims),
        caveat: null,
      })),
      nonEquivalence: [
        {
          dimension: 'conflict.severity',
          statement:
            conflict.severity === 'significant'
              ? `${zh ? '重大分歧，各立场分开保留，不作合并：' : 'A significant disagreement: the positions are kept apart and never merged. '}${note}`
              : `${zh ? '轻微分歧（侧重点不同）：' : 'A minor difference of emphasis: '}${note}`,
          evidence: evidence(view, allPassages, allClaims),
          caveat: null,
        },
      ],
      positions: positions.map((p) => ({ label: p.label, objectId: null, claimIds: p.claims.map((c) => c.id) })),
      claims: allClaims.map((c) => claimView(view, c)),
      severity: conflict.severity,
    },
    claims: allClaims,
  };
}

const RELATION_TYPES = ['similar', 'contrasts', 'non_equivalent', 'part_of'] as const;

/**
 * compare mode. relationId names a recorded conflict (conflict.gewu) or a concept relation
 * `<conceptA>|<type>|<conceptB>` (`:` works as the separator too) that conceptA declares; without
 * relationId, objectId and query name the two objects (any graph node ids).
 */
export function compareMode(view: View, input: { relationId?: string; objectId?: string; query?: string }): { compare: Compare; citations: ReturnType<typeof citationsOf> } {
  const k = view.lib.knowledge;
  let out: { compare: Compare; claims: Claim[] };
  if (input.relationId) {
    const conflict = k.conflicts.find((c) => c.id === input.relationId);
    if (conflict) out = compareConflict(view, conflict);
    else {
      const parts = input.relationId.includes('|') ? input.relationId.split('|') : input.relationId.split(':');
      if (parts.length !== 3 || !RELATION_TYPES.includes(parts[1] as (typeof RELATION_TYPES)[number])) {
        throw new ServiceError(400, 'INVALID_REQUEST', `body.relationId: use a conflict id or "<conceptA>|<type>|<conceptB>" with type ${RELATION_TYPES.join(', ')}`);
      }
      const [a, type, b] = parts as [string, string, string];
      const source = k.conceptById.get(a);
      if (!source || !k.conceptById.has(b)) throw new ServiceError(404, 'NOT_FOUND', `no concept ${source ? b : a}`);
      const relation = source.relations.find((r) => r.type === type && r.target === b);
      if (!relation) throw new ServiceError(404, 'NOT_FOUND', `no relation ${a}|${type}|${b} in the packs`);
      out = compareSides(view, side(view, a), side(view, b), { kind: 'relation', relationId: `${a}|${type}|${b}`, relationType: type, note: relation.note });
    }
  } else {
    const left = input.objectId!.trim();
    const right = input.query!.trim();
    if (left === right) throw new ServiceError(400, 'INVALID_REQUEST', 'body.query: compare needs two different objects (objectId and query)');
    out = compareSides(view, side(view, left), side(view, right), { kind: 'objects', relationId: null, relationType: null, note: null });
  }
  return { compare: out.compare, citations: citationsOf(view.lib, out.claims) };
}
