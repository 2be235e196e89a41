import { randomUUID } from 'node:crypto';
import type { GateVerdict } from '../../gate/gate.js';
import { ServiceError } from '../../platform/errors.js';
import type { Library } from '../library.js';
import type { Claim, ConflictRecord, Passage, TrustLevel, UnrecordedStory } from '../model.js';
import type { Knowledge } from '../packs.js';
import type { RetrievalScope } from '../retrieval.js';
import { traditionByName } from '../retrieval.js';
import { bindClaims, filterSupported, findConflicts, gatherClaims, weakestTrust, type BoundClaim, type ConflictStatus } from './claims.js';
import { validateCitations, type Citation } from './citations.js';
import { asksSource, QuoteMatcher, quotesOf, scopeFor, selectEvidence, type Evidence } from './evidence.js';
import { ANSWER_MODE, express, trustLabel, type ExpressionMode } from './expression.js';
import { compares, detectIntent, firstWorkNamed, type Intent } from './intent.js';
import { pinyinSpelledOut } from '../pinyin-lines.js';
import { languageOf, normalize } from '../text.js';

export const PROTOCOL = 'KB-TKP-1.0' as const;

export type AbstentionReason = 'GATE_BLOCKED' | 'OUT_OF_SCOPE' | 'NO_EVIDENCE' | 'SIGNIFICANT_CONFLICT';

export interface TrustedQueryInput {
  query: string;
  knowledge_scope: string[];
  expression_mode: ExpressionMode;
}

export interface KnowledgeClaim {
  claim_id: string;
  statement: string;
  claim_type: Claim['claim_type'];
  evidence_ids: string[];
  source_ids: string[];
  perspective: string;
  trust_level: TrustLevel;
  conflict_status: ConflictStatus;
  truth_boundary: Claim['truth_boundary'];
}

export interface TrustedAnswer {
  query_id: string;
  answer: string;
  trust: TrustLevel;
  protocol: typeof PROTOCOL;
  answer_mode: string;
  trust_label: string;
  claims: KnowledgeClaim[];
  citations: Citation[];
  rendered_answer: string;
  has_conflict: boolean;
  has_uncertainty: boolean;
  abstention: { reason: AbstentionReason; message: string; category?: string } | null;
}

/** What the audit records about one query: enough to reconstruct why it answered as it did. */
export interface TrustedQueryTrace {
  gate: GateVerdict;
  intent: Pick<Intent, 'kind' | 'lang' | 'packsNamed'>;
  evidenceIds: string[];
  claimIds: string[];
  droppedClaimIds: string[];
  timingsMs: Record<string, number>;
}

/** Step: Retrieve's scope. `kb` is every pack; otherwise pack ids or tradition names. */
export function resolveScope(scope: string[], lib: Library): RetrievalScope {
  if (scope.length === 1 && scope[0] === 'kb') return {};
  const packIds: string[] = [];
  const traditions: RetrievalScope['traditions'] = [];
  for (const entry of scope) {
    if (entry === 'kb') continue;
    if (lib.knowledge.packs.some((p) => p.manifest.id === entry)) packIds.push(entry);
    else if (traditionByName(entry)) traditions.push(traditionByName(entry)!);
    else throw new ServiceError(400, 'INVALID_REQUEST', `body.knowledge_scope: unknown scope "${entry}" (use kb, a pack id or a tradition)`);
  }
  return { ...(packIds.length ? { packIds } : {}), ...(traditions.length ? { traditions } : {}) };
}

const ABSTAIN_TEXT: Record<Exclude<AbstentionReason, 'GATE_BLOCKED' | 'SIGNIFICANT_CONFLICT'>, { zh: string; en: string }> = {
  OUT_OF_SCOPE: {
    zh: '这个问题不在本服务所依据的经典（《道德经》《论语》《易经》《金刚经》《传习录》）范围之内，所以不作回答，也不会编造答案。',
    en: 'This question is outside the classics this service rests on (Daodejing, Analects, Yijing, Diamond Sutra, Chuanxilu), so it is not answered rather than invented.',
  },
  NO_EVIDENCE: {
    zh: '在经典原文中没有找到足以支持回答的依据，所以不作回答，也不会编造答案。',
    en: 'No passage in the classics carries an answer to this question, so it is not answered rather than invented.',
  },
};

const FALSE_PREMISE = {
  zh: '这个问题似乎以经典原文并没有的说法为前提，可以先核对它所依据的原文。',
  en: 'The question seems to rest on something the texts do not say; the passage it leans on is worth checking first.',
};

/**
 * Step Answerability: why the answerability model finds a question unanswerable from the texts
 * (no_evidence, false_premise, out_of_scope), or undefined when it may be answerable (or the
 * packs ship no model). Below the model's threshold for `answerable`, the likeliest other class.
 */
export function notAnswerable(question: string, lib: Pick<Library, 'answerability'>): string | undefined {
  const model = lib.answerability;
  if (!model) return undefined;
  const { probabilities } = model.predict(question);
  if (probabilities.answerable! >= model.threshold) return undefined;
  return model.classes.filter((c) => c !== 'answerable').reduce((a, b) => (probabilities[b]! > probabilities[a]! ? b : a));
}

/**
 * Step Evidence, from precedents: the passage the question's nearest precedents were answered
 * from, when it has a clear share of their votes (`minShare`), lies in scope and is not evidence
 * already. It joins the evidence after what retrieval found, at the relevance the precedents
 * file gives it, and its claims compete with the others' for the answer.
 */
export function precedentEvidence(question: string, lib: Pick<Library, 'precedents'>, scope: RetrievalScope, evidence: Evidence[]): Evidence | undefined {
  // Precedents add to evidence, never stand in for it: a question retrieval found nothing for
  // ("what does the Diamond Sutra say about electricity?") is like many answered ones in form only.
  if (!lib.precedents || !evidence.length) return undefined;
  const inScope = (p: Passage) => (!scope.packIds || scope.packIds.includes(p.packId)) && (!scope.traditions || scope.traditions.includes(p.tradition));
  const [best] = lib.precedents.suggest(question, inScope);
  // A share is a ratio of sums of floats: one precedent voting for five passages gives each 1/5
  // only up to rounding, and rounding must not decide whether a fifth is enough.
  if (!best || best.share < lib.precedents.minShare - 1e-9 || evidence.some((e) => e.passage.id === best.passage.id)) return undefined;
  return { passage: best.passage, basis: 'precedent', relevance: lib.precedents.relevance };
}

/**
 * The classics, other than those named, that hold a classical line the question quotes word for
 * word before it names any classic, in a question that compares. A line quoted after a classic's
 * name (论语里说“上善若水”) is given to that classic: a misattribution, not a comparison.
 */
function packsOfQuotedLines(question: string, named: string[], lib: Library): string[] {
  const n = normalize(question);
  const firstNamed = firstWorkNamed(n);
  if (!compares(n) || firstNamed < 0) return [];
  const homes = new Set<string>();
  for (const text of quotesOf(question)) {
    if (!/\p{Script=Han}{4}/u.test(text) || n.indexOf(normalize(text)) > firstNamed) continue;
    const line = new QuoteMatcher(text, lib.retrieval);
    if (line.modernHan) continue;
    for (const hit of lib.retrieval.search(text, {}, 5)) if (!named.includes(hit.passage.packId) && line.carries(hit.passage.id)) homes.add(hit.passage.packId);
  }
  return [...homes];
}

/** The first story the classics do not record that a question rests on, if any. */
export function unrecordedStory(question: string, k: Knowledge): UnrecordedStory | undefined {
  const n = normalize(question);
  return k.unrecorded.find((story) => story.matchers.some((test) => test(n)));
}

function conflictMessage(conflicts: ConflictRecord[], lib: Library, lang: 'zh' | 'en'): string {
  const k = lib.knowledge;
  const parts = conflicts
    .filter((c) => c.severity === 'significant')
    .map((c) => {
      const positions = c.positions.map((p) => {
        const locators = [...new Set(p.claim_ids.flatMap((id) => k.claimById.get(id)?.evidence.map((e) => k.passageById.get(e.passage_id)?.locator) ?? []))].filter(Boolean);
        return lang === 'zh' ? `${p.label_zh}（${locators.join('；')}）` : `${p.label_en} (${locators.join('; ')})`;
      });
      return lang === 'zh' ? `关于“${c.topic_zh}”存在重大分歧：${positions.join('；')}。` : `There is a significant disagreement on ${c.topic_en}: ${positions.join('; ')}.`;
    });
  const tail = lang === 'zh' ? '证据本身不能裁定孰是孰非，因此不给出单一结论；可以分别查看上述出处。' : 'The evidence itself does not settle it, so no single answer is given; each position can be read at the passages above.';
  return `${parts.join(' ')} ${tail}`;
}

const toKnowledgeClaim = (b: BoundClaim, lang: 'zh' | 'en', lib: Library, status: (c: Claim) => ConflictStatus): KnowledgeClaim => ({
  claim_id: b.claim.id,
  statement: lang === 'zh' ? b.claim.statement_zh : b.claim.statement_en,
  claim_type: b.claim.claim_type,
  evidence_ids: [...new Set(b.bindings.map((s) => s.passageId))],
  source_ids: [...new Set(b.bindings.map((s) => lib.knowledge.passageById.get(s.passageId)!.sourceId))],
  perspective: b.claim.perspective,
  trust_level: b.claim.trust_level,
  conflict_status: status(b.claim),
  truth_boundary: b.claim.truth_boundary,
});

/** The question with its pinyin lines written out, or the question itself when it has none. */
function spelledOut(query: string, k: Library['knowledge']): string {
  const n = normalize(query);
  const spelled = pinyinSpelledOut(n, k);
  return spelled === n ? query : spelled;
}

/**
 * The trusted-query pipeline, in the contract's order: Intent, Retrieve, Evidence, Claim,
 * Binding, Trust, Conflict, Filter, Expression, Citation Validate, Answer (Audit is the caller's:
 * it records the returned trace). Every step is a pure function of what the previous ones gave.
 */
export function trustedQuery(input: TrustedQueryInput, lib: Library, queryId: string): { answer: TrustedAnswer; trace: TrustedQueryTrace } {
  const timings: Record<string, number> = {};
  const time = <T>(step: string, fn: () => T): T => {
    const start = performance.now();
    const out = fn();
    timings[step] = Math.round((performance.now() - start) * 1000) / 1000;
    return out;
  };
  const k = lib.knowledge;
  const requested = resolveScope(input.knowledge_scope, lib);
  // A line typed in pinyin is read as the line it spells (si shi er bu huo -> 四十而不惑); the
  // Gate reads what the user wrote, and the answer keeps the language they wrote in.
  const query = time('pinyin', () => spelledOut(input.query, k));
  const concepts = time('concepts', () => lib.retrieval.detectConcepts(query));
  const intent = time('intent', () => ({ ...detectIntent(query, k, concepts), lang: languageOf(input.query) }));
  const lang = intent.lang;
  const mode = input.expression_mode;
  const gate = time('gate', () => lib.gate.evaluate(input.query, lang));
  const trace: TrustedQueryTrace = { gate, intent: { kind: intent.kind, lang, packsNamed: intent.packsNamed }, evidenceIds: [], claimIds: [], droppedClaimIds: [], timingsMs: timings };

  const abstain = (reason: AbstentionReason, message: string, extra: Partial<TrustedAnswer> = {}): { answer: TrustedAnswer; trace: TrustedQueryTrace } => ({
    answer: {
      query_id: queryId,
      answer: message,
      trust: 'T4',
      protocol: PROTOCOL,
      answer_mode: ANSWER_MODE[mode],
      trust_label: lang === 'zh' ? '未作回答' : 'abstained',
      claims: [],
      citations: [],
      rendered_answer: message,
      has_conflict: false,
      has_uncertainty: true,
      abstention: { reason, message, ...(reason === 'GATE_BLOCKED' && gate.category ? { category: gate.category } : {}) },
      ...extra,
    },
    trace,
  });

  if (!gate.allowed) return abstain('GATE_BLOCKED', gate.message ?? '');
  if (intent.danglingReference) return abstain('NO_EVIDENCE', ABSTAIN_TEXT.NO_EVIDENCE[lang]);
  // A question resting on a story the classics do not record (Confucius visiting Laozi) or on a
  // teaching reversed would find passages sharing its words (ritual, Laozi); it is told where the
  // story comes from, or what the text says instead.
  const story = unrecordedStory(query, k);
  if (story) return abstain('NO_EVIDENCE', `${ABSTAIN_TEXT.NO_EVIDENCE[lang]} ${lang === 'zh' ? story.note_zh : story.note_en}`);
  // A question the texts cannot answer, as the answerability model judges it from the questions
  // it learned on: a detail the classics never give (Laozi's height), a premise they do not
  // support (a line put in the wrong classic, a meeting that never happened), a task unrelated to
  // them. Retrieval would find passages sharing its words; the model knows the kind of question.
  const unanswerable = time('answerability', () => notAnswerable(input.query, lib));
  if (unanswerable) {
    const reason = unanswerable === 'out_of_scope' ? 'OUT_OF_SCOPE' : 'NO_EVIDENCE';
    return abstain(reason, unanswerable === 'false_premise' ? `${ABSTAIN_TEXT.NO_EVIDENCE[lang]} ${FALSE_PREMISE[lang]}` : ABSTAIN_TEXT[reason][lang]);
  }

  const scopeChosen = Boolean(requested.packIds || requested.traditions);
  // A question that names one classic and quotes, without naming it, a line of another (“祸兮福之所倚”
  // 跟易经里“日中则昃”一样吗) sets the two side by side: the quoted line's classic joins the scope.
  const homes = !scopeChosen && intent.packsNamed.length ? packsOfQuotedLines(intent.question ?? query, intent.packsNamed, lib) : [];
  const sought = homes.length ? { ...intent, packsNamed: [...intent.packsNamed, ...homes] } : intent;
  let scope = scopeFor(sought, requested);
  let hits = time('retrieve', () => lib.retrieval.search(query, scope, 30));
  let evidence: Evidence[] = time('evidence', () => selectEvidence(sought, hits, k, lib.retrieval, scope));
  // A question that asks where a quoted line comes from, and names a classic that does not have it
  // (同事非说是孔子讲的，这句到底出自哪里？), asks about the line wherever it is: the classic it names
  // is the claim in doubt. A scope the caller asked for is kept.
  if (!evidence.length && !scopeChosen && intent.packsNamed.length && asksSource(intent.question ?? query) && quotesOf(intent.question ?? query).some((q) => /\p{Script=Han}{3}/u.test(q))) {
    scope = {};
    hits = time('retrieve', () => lib.retrieval.search(query, scope, 30));
    evidence = time('evidence', () => selectEvidence({ ...intent, packsNamed: [] }, hits, k, lib.retrieval, scope));
  }
  const lent = time('precedents', () => precedentEvidence(input.query, lib, scope, evidence));
  if (lent) evidence = [...evidence, lent];
  trace.evidenceIds = evidence.map((e) => e.passage.id);
  if (!evidence.length) {
    const aboutClassics = intent.packsNamed.length > 0 || intent.concepts.length > 0;
    return abstain(aboutClassics ? 'NO_EVIDENCE' : 'OUT_OF_SCOPE', ABSTAIN_TEXT[aboutClassics ? 'NO_EVIDENCE' : 'OUT_OF_SCOPE'][lang]);
  }

  const gathered = time('claim', () => gatherClaims(evidence, k, intent));
  const conflict = time('conflict', () => findConflicts(gathered, k));
  // A significant conflict whose positions the answer would rest on is not settled here: abstain
  // and name the positions. When only one side is among the claims, that side is dropped rather
  // than presented as settled.
  const significant = conflict.conflicts.filter((c) => c.severity === 'significant');
  const ids = new Set(gathered.map((c) => c.id));
  let contested = significant.filter((c) => c.positions.filter((p) => p.claim_ids.some((id) => ids.has(id))).length >= 2);
  // A question about what one named tradition holds ("what does Wang Yangming mean by 心即理")
  // is answered from that tradition's position, with the dispute noted; only a question that
  // asks between the positions (names two traditions, or none) abstains. A comparison inside one
  // named classic ("the Daodejing contrasts learning with the Way") is still that classic's view.
  const named = new Set(intent.packsNamed.map((p) => (p === 'daodejing' ? 'daoist' : p === 'diamond-sutra' ? 'buddhist' : p === 'chuanxilu' ? 'yangming' : 'confucian')));
  // A question that names no classic but asks about concepts of one tradition only (心即理 is
  // Wang Yangming's) asks what that tradition holds.
  const conceptTraditions = new Set(intent.concepts.map((c) => c.tradition).filter((t) => t !== 'common'));
  if (!named.size && conceptTraditions.size === 1) named.add([...conceptTraditions][0]!);
  const noted: typeof significant = [];
  let kept_ = gathered;
  // A dispute that one passage reports in full, both sides, when that passage came in beside the
  // one the question is about (Wang's remark on 学而不思 restates his dispute with Zhu Xi on 心即理),
  // is not what the question asks: its claims are left out and the dispute noted, and the answer
  // rests on the rest. Sides carried by different passages are the comparison itself.
  const first = evidence[0]!.passage.id;
  const carriers = (c: (typeof significant)[number]) =>
    new Set(c.positions.flatMap((p) => p.claim_ids.filter((id) => ids.has(id)).flatMap((id) => (k.claimById.get(id)?.evidence ?? []).map((e) => e.passage_id))));
  const aside = contested.filter((c) => {
    const passages = carriers(c);
    return passages.size === 1 && !passages.has(first);
  });
  if (aside.length) {
    const asideClaims = new Set(aside.flatMap((c) => c.positions.flatMap((p) => p.claim_ids)));
    const rest = kept_.filter((c) => !asideClaims.has(c.id));
    if (rest.length) {
      kept_ = rest;
      noted.push(...aside);
      contested = contested.filter((c) => !aside.includes(c));
    }
  }
  // A situation that names none of a dispute's concepts (parents who will not listen) does not
  // ask about it, wherever its sides come from: the passages that carry it are left out whole,
  // since their other claims are about it too, and it is not noted. The dispute over 格物 is no
  // answer to "should I keep advising them?".
  const askedConcepts = new Set(intent.concepts.map((c) => c.id));
  const touches = (c: (typeof significant)[number]) =>
    c.positions.some((p) => p.claim_ids.some((id) => (k.claimById.get(id)?.concept_ids ?? []).some((cid) => askedConcepts.has(cid))));
  const unasked = intent.kind === 'situational' ? contested.filter((c) => !touches(c)) : [];
  if (unasked.length) {
    const away = new Set(unasked.flatMap((c) => [...carriers(c)]));
    const rest = kept_.filter((c) => !c.evidence.some((e) => away.has(e.passage_id)));
    if (rest.length) {
      kept_ = rest;
      contested = contested.filter((c) => !unasked.includes(c));
    }
  }
  if (contested.length && named.size === 1) {
    const [tradition] = [...named];
    const resolvable = contested.every((c) => c.positions.some((p) => p.claim_ids.some((id) => k.claimById.get(id)?.perspective === tradition)));
    if (resolvable) {
      const other = new Set(contested.flatMap((c) => c.positions.filter((p) => !p.claim_ids.some((id) => k.claimById.get(id)?.perspective === tradition)).flatMap((p) => p.claim_ids)));
      kept_ = gathered.filter((c) => !other.has(c.id));
      noted.push(...contested);
      contested = [];
    }
  }
  // The same holds when only the named tradition's side is among the claims: it is that
  // tradition's position, answered with the dispute noted, not a settled truth.
  if (named.size === 1) {
    const [tradition] = [...named];
    for (const c of significant) {
      if (noted.includes(c) || contested.includes(c)) continue;
      const present = c.positions.flatMap((p) => p.claim_ids).filter((id) => ids.has(id));
      if (present.length && present.every((id) => k.claimById.get(id)?.perspective === tradition)) noted.push(c);
    }
  }
  const oneSided = new Set(significant.filter((c) => !noted.includes(c)).flatMap((c) => c.positions.flatMap((p) => p.claim_ids)));
  const claims = contested.length ? kept_ : kept_.filter((c) => !oneSided.has(c.id));
  if (contested.length || (!claims.length && significant.length)) {
    return abstain('SIGNIFICANT_CONFLICT', conflictMessage(contested.length ? contested : significant, lib, lang), { has_conflict: true });
  }
  const minor = [...conflict.conflicts.filter((c) => c.severity === 'minor'), ...noted];
  const bound = time('binding', () => bindClaims(claims, k));
  const supported = time('filter', () => filterSupported(bound, evidence));
  const { kept, citations, dropped } = time('citation_validate', () => validateCitations(supported, k));
  trace.droppedClaimIds = dropped;
  if (!kept.length) return abstain('NO_EVIDENCE', ABSTAIN_TEXT.NO_EVIDENCE[lang]);
  trace.claimIds = kept.map((b) => b.claim.id);

  const trust = time('trust', () => weakestTrust(kept.map((b) => b.claim)));
  const rendering = time('expression', () => express(kept, mode, lang, trust, minor));
  const conflicted = new Set(minor.flatMap((c) => c.positions.flatMap((p) => p.claim_ids)));
  const status = (c: Claim): ConflictStatus => (conflicted.has(c.id) ? 'minor' : 'none');
  return {
    answer: {
      query_id: queryId,
      answer: rendering.answer,
      trust,
      protocol: PROTOCOL,
      answer_mode: ANSWER_MODE[mode],
      trust_label: trustLabel(trust, lang),
      claims: kept.map((b) => toKnowledgeClaim(b, lang, lib, status)),
      citations,
      rendered_answer: rendering.rendered,
      has_conflict: minor.length > 0,
      has_uncertainty: trust === 'T3' || trust === 'T4' || minor.length > 0,
      abstention: null,
    },
    trace,
  };
}

/**
 * The trusted query as the routes serve it: through the library's answer cache, with a fresh
 * query id. A cached answer's trace keeps what the answer rests on (Gate verdict, evidence,
 * claims); its timings are the lookup's, not the original computation's.
 */
export function answerTrustedQuery(input: TrustedQueryInput, lib: Library): { answer: TrustedAnswer; trace: TrustedQueryTrace } {
  const started = performance.now();
  const { value, hit } = lib.answers.through(['trusted-query', input.query, input.knowledge_scope, input.expression_mode], () => trustedQuery(input, lib, ''));
  const answer = { ...value.answer, query_id: `tq_${randomUUID()}` };
  if (!hit) return { answer, trace: value.trace };
  return { answer, trace: { ...value.trace, timingsMs: { answer_cache_hit: Math.round((performance.now() - started) * 1000) / 1000 } } };
}
