import type { Knowledge } from '../packs.js';
import type { Claim, ConflictRecord, TrustLevel } from '../model.js';
import { TRUST_ORDER } from '../model.js';
import { displayLocator } from '../locators.js';
import { normalize, questionTerms, terms } from '../text.js';
import type { Evidence } from './evidence.js';
import type { Intent } from './intent.js';

/** A claim with the exact spans of evidence it rests on. */
export interface BoundClaim {
  claim: Claim;
  bindings: { passageId: string; locator: string; quote: string; start: number; end: number }[];
}

const SENTENCES = /[^。！？；]+[。！？；]?/gu;

/**
 * The sentence of a passage that best carries the question: the one sharing most of the
 * question's content, else the first. Quotation marks at its ends are trimmed; the result is
 * still a verbatim substring of the passage.
 */
function bestSentence(text: string, content: string): string {
  const sentences = text.match(SENTENCES) ?? [text];
  const chars = new Set(Array.from(normalize(content)).filter((c) => /\p{Script=Han}/u.test(c)));
  let best = sentences[0]!;
  let bestScore = -1;
  for (const s of sentences) {
    const score = Array.from(normalize(s)).filter((c) => chars.has(c)).length;
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best.replace(/^[\s“”‘’「」：:，,]+|[\s“”‘’「」]+$/gu, '') || best;
}

/** The terms of each curated claim's statements, kept: the claims do not change while loaded. */
const claimTerms = new WeakMap<Claim, Set<string>>();
function statementTerms(claim: Claim): Set<string> {
  let out = claimTerms.get(claim);
  if (!out) {
    out = new Set(terms(`${claim.statement_zh} ${claim.statement_en}`));
    claimTerms.set(claim, out);
  }
  return out;
}

/** How much a claim on a passage the question names by locator is preferred. */
const REFERENCE_BONUS = 2;

/**
 * Claim step: the curated claims bound to the evidence passages, best first (stronger trust,
 * more overlap with the question). A passage without curated claims still yields its own text as
 * a T0 claim: quoting the canonical text is the one statement that needs no interpretation.
 */
export function gatherClaims(evidence: Evidence[], k: Knowledge, intent: Intent, max = 5): Claim[] {
  const ids = new Set(evidence.map((e) => e.passage.id));
  const conceptIds = new Set(intent.concepts.map((c) => c.id));
  const q = normalize(intent.content);
  const asked = questionTerms(intent.content);
  const scored: { claim: Claim; score: number }[] = [];
  const seen = new Set<string>();
  for (const e of evidence) {
    // A passage the question names by its locator (hexagram 47, Analects 2.4) is what it asks about.
    const named = e.basis === 'reference' ? REFERENCE_BONUS : 0;
    const curated = (k.claimsByPassage.get(e.passage.id) ?? []).filter((c) => c.evidence.every((span) => ids.has(span.passage_id)));
    for (const claim of curated) {
      if (seen.has(claim.id)) continue;
      if (claim.trust_level === 'T4' && intent.kind !== 'situational') continue;
      seen.add(claim.id);
      const overlap = (claim.concept_ids ?? []).filter((id) => conceptIds.has(id)).length;
      // The question's content words the statement has (not its "to" and "his").
      const words = statementTerms(claim);
      const termHits = asked.filter((t) => words.has(t)).length;
      const trustPenalty = TRUST_ORDER.indexOf(claim.trust_level);
      // A claim quoting the very words the question asks about comes first.
      const quoted = claim.evidence.some((span) => Array.from(span.quote).length >= 2 && q.includes(normalize(span.quote).replace(/[。，、；：！？“”]/g, ''))) ? 3 : 0;
      scored.push({ claim, score: e.relevance * 4 + named + quoted + overlap + termHits * 0.5 - trustPenalty * 0.3 });
    }
    if (!curated.some((c) => c.trust_level !== 'T4')) {
      const quote = bestSentence(e.passage.text, intent.content);
      const auto: Claim = {
        id: `claim.text.${e.passage.id}`,
        packId: e.passage.packId,
        statement_zh: `${displayLocator(e.passage.locator, 'zh')}：“${quote}”`,
        statement_en: e.passage.en ? `${e.passage.locator}: ${firstSentence(e.passage.en)}` : `${e.passage.locator} reads: ${quote}`,
        claim_type: 'TEXT',
        trust_level: 'T0',
        truth_boundary: 'direct',
        perspective: e.passage.tradition,
        evidence: [{ passage_id: e.passage.id, quote }],
      };
      scored.push({ claim: auto, score: e.relevance * 4 + named - 0.5 });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.claim.id.localeCompare(b.claim.id));
  // A claim that takes one side of a significant conflict is either weighed against the other
  // side or dropped by the Conflict step; it does not take the place of an undisputed claim
  // about the same evidence (Daodejing 48 still answers through its other claims when 48.1,
  // one side of the dispute on learning, is dropped).
  const disputed = (c: Claim) => (k.conflictsByClaim.get(c.id) ?? []).some((x) => x.severity === 'significant');
  // Of the undisputed claims, each evidence passage's best comes before a second claim on a
  // passage already spoken for: the answer rests on as many of its passages as it has room for.
  const undisputed = scored.filter(({ claim }) => !disputed(claim));
  const spoken = new Set<string>();
  const firsts = undisputed.filter(({ claim }) => {
    const passage = claim.evidence[0]?.passage_id ?? claim.id;
    if (spoken.has(passage)) return false;
    spoken.add(passage);
    return true;
  });
  const chosen = new Set([...firsts, ...undisputed.filter((s) => !firsts.includes(s))].slice(0, max));
  const out: Claim[] = [];
  scored.forEach((s, i) => {
    if (disputed(s.claim) ? i < max : chosen.has(s)) out.push(s.claim);
  });
  return out;
}

function firstSentence(text: string): string {
  const m = /^.*?[.!?](\s|$)/.exec(text);
  return (m?.[0] ?? text).trim();
}

/** Binding step: each claim to the exact character span of its quote in the passage. */
export function bindClaims(claims: Claim[], k: Knowledge): BoundClaim[] {
  return claims.map((claim) => ({
    claim,
    bindings: claim.evidence.map((span) => {
      const passage = k.passageById.get(span.passage_id);
      const start = passage ? passage.text.indexOf(span.quote) : -1;
      return { passageId: span.passage_id, locator: passage?.locator ?? '', quote: span.quote, start, end: start < 0 ? -1 : start + span.quote.length };
    }),
  }));
}

/** Trust step: the answer is as strong as the weakest claim it rests on. */
export function weakestTrust(claims: Claim[]): TrustLevel {
  let worst = 0;
  for (const c of claims) worst = Math.max(worst, TRUST_ORDER.indexOf(c.trust_level));
  return TRUST_ORDER[worst]!;
}

export type ConflictStatus = 'none' | 'minor' | 'significant' | 'unresolved';

/** Conflict step: the packs' conflicts that the selected claims take part in. */
export function findConflicts(claims: Claim[], k: Knowledge): { status: ConflictStatus; conflicts: ConflictRecord[] } {
  const found = new Map<string, ConflictRecord>();
  for (const c of claims) for (const conflict of k.conflictsByClaim.get(c.id) ?? []) found.set(conflict.id, conflict);
  const conflicts = [...found.values()].sort((a, b) => a.id.localeCompare(b.id));
  const status: ConflictStatus = conflicts.some((c) => c.severity === 'significant') ? 'significant' : conflicts.length ? 'minor' : 'none';
  return { status, conflicts };
}

/** Filter step: keep only claims whose every span is bound inside the evidence. */
export function filterSupported(bound: BoundClaim[], evidence: Evidence[]): BoundClaim[] {
  const ids = new Set(evidence.map((e) => e.passage.id));
  return bound.filter((b) => b.bindings.length > 0 && b.bindings.every((s) => ids.has(s.passageId) && s.start >= 0));
}
