import { randomUUID } from 'node:crypto';
import type { GateVerdict } from '../../gate/gate.js';
import type { Library } from '../library.js';
import { displayLocator } from '../locators.js';
import { SCHOOL_CHAR, TRADITIONS, TRUST_ORDER, type Claim, type Passage, type Situation, type Tradition, type TrustLevel } from '../model.js';
import { codePoints, PERSPECTIVE_MAX, PERSPECTIVE_MIN } from '../packs.js';
import { languageOf, normalize } from '../text.js';
import { bindClaims, findConflicts } from '../tq/claims.js';
import { validateCitations, type Citation } from '../tq/citations.js';
import { contentTerms, selectEvidence, SITUATION_FLOOR } from '../tq/evidence.js';
import { detectIntent } from '../tq/intent.js';
import type { KnowledgeClaim } from '../tq/pipeline.js';

export const PROTOCOL_ILLUMINATION = 'KB-Illumination-1.1' as const;

export interface Perspective {
  tradition: Tradition;
  school: string;
  text: string;
  evidence_ids: string[];
  trust: TrustLevel;
  has_evidence: boolean;
}

export interface IlluminateAnswer {
  query_id: string;
  protocol: typeof PROTOCOL_ILLUMINATION;
  context: { surface_question: string; tension: string | null; context_confidence: 'C1' | 'C2' | 'C3'; situation_id: string | null; language: 'zh' | 'en' };
  focused_question: { text: string; basis: 'situation' | 'concepts' | 'question'; concept_ids: string[] };
  perspectives: Perspective[];
  contrast: { consensus: string; differences: { tradition: Tradition; school: string; emphasis: string }[] };
  insight: { text: string; reflective_question: string; small_action: string | null };
  claims: KnowledgeClaim[];
  citations: Citation[];
  evidence_drawer: { evidence_id: string; locator: string; display_locator: string; text: string; en: string | null; source_id: string; tradition: Tradition }[];
  overall_trust: TrustLevel;
  has_conflict: boolean;
  abstention: { reason: 'GATE_BLOCKED' | 'OUT_OF_SCOPE'; message: string; category?: string } | null;
}

/** Which classics speak for a tradition here (the Yijing also serves the Daoist lens, DESIGN.md 6). */
const PACKS_OF: Record<Tradition, string[]> = {
  daoist: ['daodejing'],
  confucian: ['analects', 'yijing'],
  buddhist: ['diamond-sutra'],
  yangming: ['chuanxilu'],
};

const NAMES: Record<Tradition, { zh: string; en: string; classic_zh: string; classic_en: string }> = {
  daoist: { zh: '道家', en: 'Daoist', classic_zh: '《道德经》', classic_en: 'Daodejing' },
  confucian: { zh: '儒家', en: 'Confucian', classic_zh: '《论语》《周易》', classic_en: 'Analects and Yijing' },
  buddhist: { zh: '佛家', en: 'Buddhist', classic_zh: '《金刚经》', classic_en: 'Diamond Sutra' },
  yangming: { zh: '阳明心学', en: 'Yangming', classic_zh: '《传习录》', classic_en: 'Chuanxilu' },
};

const fits = (text: string) => {
  const n = codePoints(text);
  return n >= PERSPECTIVE_MIN && n <= PERSPECTIVE_MAX;
};

/** Says plainly that a tradition has nothing here, in 50-100 characters, instead of inventing a stance. */
export function noEvidenceText(tradition: Tradition, lang: 'zh' | 'en'): string {
  const n = NAMES[tradition];
  return lang === 'zh'
    ? `${n.classic_zh}中没有找到直接回应这个问题的原文，所以这里不替${n.zh}编造立场；可以参考其他几家的视角，或换一种问法再问。`
    : `No ${n.classic_en} passage speaks directly to this, so no ${n.en} stance is invented here.`;
}

/** A verbatim prefix of a sentence, cut at punctuation, no longer than `room` characters. */
function quoteWithin(text: string, room: number): string | undefined {
  const sentences = text.match(/[^。！？；]+[。！？；]?/gu) ?? [text];
  for (const s of sentences) {
    const clean = s.replace(/^[“”‘’「」：:，,\s]+/u, '');
    if (codePoints(clean) <= room && codePoints(clean) >= 4) return clean.replace(/[“”‘’]+$/u, '');
    const cut = clean.match(/^[^，；：]+[，；：]?/u)?.[0];
    if (cut && codePoints(cut) <= room && codePoints(cut) >= 4) return cut.replace(/[，；：]$/u, '');
  }
  return undefined;
}

export interface Lens {
  text: string;
  trust: TrustLevel;
  claim: Claim;
}

/** The perspective a tradition's own evidence gives, fitted to 50-100 characters. */
export function lensFromEvidence(passages: Passage[], lib: Library, lang: 'zh' | 'en', conceptIds: Set<string>): Lens | undefined {
  const about = (c: Claim) => ((c.concept_ids ?? []).some((id) => conceptIds.has(id)) ? 0 : 1);
  for (const passage of passages) {
    const claims = (lib.knowledge.claimsByPassage.get(passage.id) ?? [])
      .filter((c) => c.trust_level !== 'T4' && c.evidence.every((e) => e.passage_id === passage.id))
      .sort((a, b) => about(a) - about(b) || TRUST_ORDER.indexOf(a.trust_level) - TRUST_ORDER.indexOf(b.trust_level) || a.id.localeCompare(b.id));
    for (const claim of claims) {
      const statement = lang === 'zh' ? claim.statement_zh : claim.statement_en;
      if (fits(statement)) return { text: statement, trust: claim.trust_level, claim };
    }
    // Otherwise quote the text itself (T0): the locator and a verbatim stretch of the passage.
    const label = displayLocator(passage.locator, lang);
    const lead = lang === 'zh' ? `${label}：“` : `${label}: `;
    const source = lang === 'zh' ? passage.text : passage.en;
    if (!source) continue;
    const room = PERSPECTIVE_MAX - codePoints(lead) - 2;
    const quote = lang === 'zh' ? quoteWithin(source, room) : source.split(/(?<=[.!?;])\s+/).reduce((acc, s) => (codePoints(acc + ' ' + s) <= room ? `${acc} ${s}`.trim() : acc), '');
    if (!quote) continue;
    const text = lang === 'zh' ? `${lead}${quote}”` : `${lead}${quote}`;
    if (!fits(text)) continue;
    const zhQuote = lang === 'zh' ? quote : (quoteWithin(passage.text, 40) ?? passage.text);
    const claim: Claim = {
      id: `claim.text.${passage.id}`,
      packId: passage.packId,
      statement_zh: lang === 'zh' ? text : `${displayLocator(passage.locator, 'zh')}：“${zhQuote}”`,
      statement_en: lang === 'en' ? text : `${passage.locator}`,
      claim_type: 'TEXT',
      trust_level: 'T0',
      truth_boundary: 'direct',
      perspective: passage.tradition,
      evidence: [{ passage_id: passage.id, quote: zhQuote }],
    };
    return { text, trust: 'T0', claim };
  }
  return undefined;
}

/** A curated situation perspective: an inference from its passages to this kind of situation (T3). */
export function lensFromSituation(situation: Situation, tradition: Tradition, lib: Library, lang: 'zh' | 'en'): Lens | undefined {
  const view = situation.perspectives[tradition];
  if (!view) return undefined;
  const passages = view.passage_ids.map((id) => lib.knowledge.passageById.get(id)).filter((p): p is Passage => Boolean(p));
  if (!passages.length) return undefined;
  const claim: Claim = {
    id: `claim.situation.${situation.id}.${tradition}`,
    packId: 'core',
    statement_zh: view.zh,
    statement_en: view.en,
    claim_type: 'INFERENCE',
    trust_level: 'T3',
    truth_boundary: 'inferred',
    perspective: tradition,
    evidence: passages.map((p) => ({ passage_id: p.id, quote: quoteWithin(p.text, 30) ?? Array.from(p.text).slice(0, 12).join('') })),
  };
  return { text: lang === 'zh' ? view.zh : view.en, trust: 'T3', claim };
}

function contextConfidence(query: string, minimalContext: string | undefined, situation: Situation | undefined): 'C1' | 'C2' | 'C3' {
  if (minimalContext && minimalContext.trim().length >= 4) return 'C3';
  const personal = /\b(i|i'm|im|my|me|we)\b|我/.test(normalize(query));
  return situation || personal ? 'C2' : 'C1';
}

/**
 * Illumination: understand the context, focus the real question, give the four traditions'
 * perspectives (each resting on its own classic's passages, or saying plainly it has none),
 * contrast them, and condense to one insight with a reflective question and a small action.
 */
export function illuminate(input: { query: string; minimal_context?: string }, lib: Library, queryId: string): IlluminateAnswer {
  const k = lib.knowledge;
  const lang = languageOf(input.query);
  const full = input.minimal_context ? `${input.query}\n${input.minimal_context}` : input.query;
  const gate: GateVerdict = lib.gate.evaluate(full, lang);
  const concepts = lib.retrieval.detectConcepts(full);
  const intent = detectIntent(input.query, k, concepts);
  // A situation speaks only for a question that describes one (or comes with context).
  // A question that does not read as personal must match a situation more closely.
  const matched = lib.retrieval.matchSituations(full, 1, contentTerms(full))[0];
  const floor = intent.kind === 'situational' || input.minimal_context ? SITUATION_FLOOR : 0.5;
  // One word shared with a situation (什么是良知 and the situation of witnessing wrongdoing, which
  // speaks of 良知) is no situation told, whatever share of a short question it is.
  const situation = matched && matched.coverage >= floor && (intent.kind === 'situational' || input.minimal_context || matched.matched >= 2) ? matched.situation : undefined;

  const context = {
    surface_question: input.query,
    tension: situation ? (lang === 'zh' ? situation.tension_zh : situation.tension_en) : null,
    context_confidence: contextConfidence(input.query, input.minimal_context, situation),
    situation_id: situation?.id ?? null,
    language: lang,
  };
  const focused_question = situation
    ? { text: lang === 'zh' ? `${situation.title_zh}：${situation.tension_zh}` : `${situation.title_en}: ${situation.tension_en}`, basis: 'situation' as const, concept_ids: situation.concept_ids ?? [] }
    : concepts.length
      ? {
          text: lang === 'zh' ? `${concepts.map((c) => c.zh).join('、')}在四家经典里各指什么？` : `What do the four traditions' classics say about ${concepts.map((c) => c.en).join(', ')}?`,
          basis: 'concepts' as const,
          concept_ids: concepts.map((c) => c.id),
        }
      : { text: input.query, basis: 'question' as const, concept_ids: [] };

  const empty = (reason: 'GATE_BLOCKED' | 'OUT_OF_SCOPE', message: string, category?: string): IlluminateAnswer => ({
    query_id: queryId,
    protocol: PROTOCOL_ILLUMINATION,
    context,
    focused_question,
    perspectives: [],
    contrast: { consensus: '', differences: [] },
    insight: { text: message, reflective_question: '', small_action: null },
    claims: [],
    citations: [],
    evidence_drawer: [],
    overall_trust: 'T4',
    has_conflict: false,
    abstention: { reason, message, ...(category ? { category } : {}) },
  });
  if (!gate.allowed) return empty('GATE_BLOCKED', gate.message ?? '', gate.category ?? undefined);

  const lenses = new Map<Tradition, Lens>();
  for (const tradition of TRADITIONS) {
    const fromSituation = situation && lensFromSituation(situation, tradition, lib, lang);
    if (fromSituation) {
      lenses.set(tradition, fromSituation);
      continue;
    }
    // The same evidence rule as the trusted query, within this tradition's classics.
    const scope = { packIds: PACKS_OF[tradition] };
    const evidence = selectEvidence(intent, lib.retrieval.search(full, scope, 30), k, lib.retrieval, scope, 3);
    const lens = lensFromEvidence(evidence.map((e) => e.passage), lib, lang, new Set(concepts.map((c) => c.id)));
    if (lens) lenses.set(tradition, lens);
  }
  if (!lenses.size && !intent.packsNamed.length && !concepts.length) {
    const message =
      lang === 'zh'
        ? '这个问题不在四家经典（《道德经》《论语》《周易》《金刚经》《传习录》）能够回应的范围之内，所以不给出各家视角，也不会编造。'
        : 'This question is outside what the classics of the four traditions can speak to, so no perspectives are given rather than invented.';
    return empty('OUT_OF_SCOPE', message);
  }

  const bound = bindClaims([...lenses.values()].map((l) => l.claim), k);
  const { kept, citations } = validateCitations(bound, k);
  const valid = new Set(kept.map((b) => b.claim.id));
  const perspectives: Perspective[] = TRADITIONS.map((tradition) => {
    const lens = lenses.get(tradition);
    if (lens && valid.has(lens.claim.id)) {
      // A claim may quote two spans of one passage; the perspective names each passage once.
      const evidenceIds = [...new Set(lens.claim.evidence.map((e) => e.passage_id))];
      return { tradition, school: SCHOOL_CHAR[tradition], text: lens.text, evidence_ids: evidenceIds, trust: lens.trust, has_evidence: true };
    }
    return { tradition, school: SCHOOL_CHAR[tradition], text: noEvidenceText(tradition, lang), evidence_ids: [], trust: 'T4' as TrustLevel, has_evidence: false };
  });
  const evidenced = perspectives.filter((p) => p.has_evidence);
  const evidenceIds = [...new Set(evidenced.flatMap((p) => p.evidence_ids))];
  const conflicts = findConflicts(kept.map((b) => b.claim), k);

  // Consensus: concepts that the evidence of two or more traditions is linked to.
  const conceptTraditions = new Map<string, Set<Tradition>>();
  for (const p of evidenced) for (const id of p.evidence_ids) for (const c of lib.retrieval.conceptsOf(id)) conceptTraditions.set(c, new Set([...(conceptTraditions.get(c) ?? []), p.tradition]));
  const shared = [...conceptTraditions.entries()].filter(([, t]) => t.size >= 2).map(([id]) => k.conceptById.get(id)!).filter(Boolean);
  const names = evidenced.map((p) => (lang === 'zh' ? NAMES[p.tradition].zh : NAMES[p.tradition].en));
  const consensus =
    evidenced.length < 2
      ? lang === 'zh'
        ? `只有${names.join('')}有直接依据，谈不上几家的共识。`
        : `Only the ${names.join('')} tradition has direct evidence here, so there is no consensus to state.`
      : shared.length
        ? lang === 'zh'
          ? `${names.join('、')}的依据都关联到${shared.slice(0, 3).map((c) => c.zh).join('、')}。`
          : `The ${names.join(', ')} evidence all bears on ${shared.slice(0, 3).map((c) => c.en).join(', ')}.`
        : lang === 'zh'
          ? `${names.join('、')}各有原文依据，但所依据的概念并不重合，共识只在都把问题拉回到自身的修养与看法上。`
          : `The ${names.join(', ')} traditions each have textual evidence, but on different concepts; what they share is that each turns the question back to one's own conduct and view.`;
  const differences = evidenced.map((p) => {
    const main = lib.retrieval.conceptsOf(p.evidence_ids[0]!).map((id) => k.conceptById.get(id)).find((c) => c && c.tradition === p.tradition);
    const where = p.evidence_ids.map((id) => displayLocator(k.passageById.get(id)!.locator, lang)).join(lang === 'zh' ? '、' : ', ');
    return {
      tradition: p.tradition,
      school: p.school,
      emphasis: main ? (lang === 'zh' ? `以“${main.zh}”为着眼点（${where}）` : `centres on ${main.en} (${where})`) : lang === 'zh' ? `依据${where}` : `rests on ${where}`,
    };
  });

  const guidance = k.guidance.get(situation?.domain ?? 'default') ?? k.guidance.get('default');
  const strongest = [...evidenced].sort((a, b) => TRUST_ORDER.indexOf(a.trust) - TRUST_ORDER.indexOf(b.trust))[0];
  const insight = {
    text: strongest ? strongest.text : noEvidenceText('daoist', lang),
    reflective_question: guidance ? (lang === 'zh' ? guidance.question_zh : guidance.question_en) : '',
    small_action: situation && guidance ? (lang === 'zh' ? guidance.action_zh : guidance.action_en) : null,
  };
  const weakest = evidenced.reduce((w, p) => Math.max(w, TRUST_ORDER.indexOf(p.trust)), 0);

  return {
    query_id: queryId,
    protocol: PROTOCOL_ILLUMINATION,
    context,
    focused_question,
    perspectives,
    contrast: { consensus, differences },
    insight,
    claims: kept.map((b) => ({
      claim_id: b.claim.id,
      statement: lang === 'zh' ? b.claim.statement_zh : b.claim.statement_en,
      claim_type: b.claim.claim_type,
      evidence_ids: [...new Set(b.bindings.map((s) => s.passageId))],
      source_ids: [...new Set(b.bindings.map((s) => k.passageById.get(s.passageId)!.sourceId))],
      perspective: b.claim.perspective,
      trust_level: b.claim.trust_level,
      conflict_status: conflicts.conflicts.some((c) => c.positions.some((p) => p.claim_ids.includes(b.claim.id))) ? conflicts.status : 'none',
      truth_boundary: b.claim.truth_boundary,
    })),
    citations,
    evidence_drawer: evidenceIds.map((id) => {
      const p = k.passageById.get(id)!;
      return { evidence_id: p.id, locator: p.locator, display_locator: displayLocator(p.locator, lang), text: p.text, en: p.en ?? null, source_id: p.sourceId, tradition: p.tradition };
    }),
    overall_trust: evidenced.length ? TRUST_ORDER[weakest]! : 'T4',
    has_conflict: conflicts.status !== 'none',
    abstention: null,
  };
}

/** Illumination as the routes serve it: through the library's answer cache, with a fresh query id. */
export function answerIlluminate(input: { query: string; minimal_context?: string }, lib: Library): IlluminateAnswer {
  const { value } = lib.answers.through(['illuminate', input.query, input.minimal_context ?? null], () => illuminate(input, lib, ''));
  return { ...value, query_id: `il_${randomUUID()}` };
}
