import { createHash } from 'node:crypto';
import { saveNewSnapshotGrouped, saveSnapshot } from '../../governance/evolution/snapshots.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { Library } from '../library.js';
import { displayLocator } from '../locators.js';
import { SCHOOL_CHAR, type ReadingPath, type Situation, type Tradition } from '../model.js';
import { languageOf } from '../text.js';
import { validateCitations, type Citation } from '../tq/citations.js';
import { bindClaims } from '../tq/claims.js';
import { contentTerms, selectEvidence, SITUATION_FLOOR } from '../tq/evidence.js';
import { detectIntent } from '../tq/intent.js';
import { lensFromEvidence, lensFromSituation, type Lens } from './illuminate.js';

export interface InsightRequestInput {
  productId: string;
  scenario: string;
  privacyMode: 'private' | 'public';
  userText?: string;
  contextSummary?: string;
  knowledgePackIds?: string[];
  maxInsights?: number;
  maxActions?: number;
  synthesize?: boolean;
  evidenceFragments?: { fragmentId: string; text?: unknown }[];
  structuredContext?: { detectedTopics?: string[]; detectedChanges?: string[]; detectedQuestions?: string[] };
  userDisabledClassics?: boolean;
  projectionId?: string;
}

/** The four classics the insights feature draws on by default (spec: Daodejing, Yijing, Analects, Diamond Sutra). */
export const INSIGHT_PACKS = ['daodejing', 'analects', 'yijing', 'diamond-sutra'];
const TRADITION_OF: Record<string, Tradition> = { daodejing: 'daoist', analects: 'confucian', yijing: 'confucian', 'diamond-sutra': 'buddhist', chuanxilu: 'yangming' };

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/** Which packs answer: the request's knowledgePackIds, else the product's projection. */
export function routePacks(req: InsightRequestInput, lib: Library): { packIds: string[]; limitations: string[] } {
  const known = new Set(lib.knowledge.packs.filter((p) => p.manifest.kind === 'classic').map((p) => p.manifest.id));
  if (req.knowledgePackIds?.length) {
    const unknown = req.knowledgePackIds.filter((id) => !known.has(id));
    if (unknown.length) throw new ServiceError(400, 'INVALID_REQUEST', `body.knowledgePackIds: unknown pack ${unknown.join(', ')}`);
    return { packIds: [...new Set(req.knowledgePackIds)], limitations: [] };
  }
  const product = lib.knowledge.products.find((p) => p.id === req.productId);
  if (req.projectionId) {
    const projection = lib.knowledge.products.find((p) => p.defaultProjectionId === req.projectionId);
    if (!projection) throw new ServiceError(400, 'INVALID_REQUEST', `body.projectionId: unknown projection ${req.projectionId}`);
    return { packIds: projection.defaultPackIds.filter((id) => known.has(id)), limitations: [] };
  }
  if (product) return { packIds: product.defaultPackIds.filter((id) => known.has(id)), limitations: [] };
  return { packIds: INSIGHT_PACKS, limitations: [`product ${req.productId} has no projection; the default four classics were used`] };
}

/**
 * Insights: a situation in, structured illuminations and small actions out. One insight per
 * tradition at most, each resting on its own classic's passages; the bundle is stored in the
 * ledger as a snapshot so that it can be replayed exactly. In private mode the user's text is
 * never stored: the bundle carries only a hash of it.
 */
/**
 * What a situation text reads as for the routed packs: its concepts, intent and situations, and
 * one validated lens per tradition. It depends only on the text, the packs and the release, so
 * it is kept in the library's answer cache; what depends on the request is built around it.
 */
function readSituation(context: string, packIds: string[], lang: 'zh' | 'en', lib: Library) {
  return lib.answers.through(['insights-reading', context, packIds, lang], () => {
    const k = lib.knowledge;
    const concepts = lib.retrieval.detectConcepts(context);
    const intent = detectIntent(context, k, concepts);
    const situations = lib.retrieval.matchSituations(context, 2, contentTerms(context)).filter((m) => m.coverage >= SITUATION_FLOOR);
    const situation = situations[0]?.situation;
    // One insight per tradition at most, in the order the packs were routed.
    const lenses: { packId: string; tradition: Tradition; lens: Lens }[] = [];
    for (const packId of packIds) {
      const tradition = TRADITION_OF[packId];
      if (!tradition || lenses.some((l) => l.tradition === tradition)) continue;
      const fromSituation = situation && lensFromSituation(situation, tradition, lib, lang);
      const ownPack = fromSituation && fromSituation.claim.evidence.every((e) => k.passageById.get(e.passage_id)?.packId === packId);
      let lens = ownPack ? fromSituation : undefined;
      if (!lens) {
        const scope = { packIds: [packId] };
        const evidence = selectEvidence(intent, lib.retrieval.search(context, scope, 30), k, lib.retrieval, scope, 3);
        lens = lensFromEvidence(evidence.map((e) => e.passage), lib, lang, new Set(concepts.map((c) => c.id)));
      }
      if (lens) lenses.push({ packId, tradition, lens });
    }
    const { kept, citations } = validateCitations(bindClaims(lenses.map((l) => l.lens.claim), k), k);
    return { concepts, intent, situations, lenses, valid: new Set(kept.map((b) => b.claim.id)), citations };
  }).value;
}

/** The insight bundle for one request, before it is stored as a snapshot. */
export function composeInsights(req: InsightRequestInput, lib: Library, opts: { requestId: string }): Record<string, unknown> {
  const k = lib.knowledge;
  const text = req.userText?.trim() || req.contextSummary?.trim() || '';
  if (!text) throw new ServiceError(400, 'INVALID_REQUEST', 'body.userText: userText or contextSummary is required');
  const lang = languageOf(text);
  const { packIds, limitations } = routePacks(req, lib);
  const base = {
    requestId: opts.requestId,
    productId: req.productId,
    releaseIds: [lib.releaseId],
    packVersions: Object.fromEntries(k.packs.filter((p) => packIds.includes(p.manifest.id)).map((p) => [p.manifest.id, p.manifest.version])),
    evidenceFragments: (req.evidenceFragments ?? []).map((f) => ({ fragmentId: f.fragmentId, used: false, reason: 'not used' })),
  };

  if (req.userDisabledClassics) {
    return { ...base, classicModuleUsed: false, noUseReason: 'USER_DISABLED', situationIds: [], integratedPacks: [], insights: [], actions: [], limitations: ['the user switched the classics module off'] };
  }
  const verdict = lib.gate.evaluate(text, lang);
  if (!verdict.allowed) {
    const risk = verdict.category === 'crisis' ? 'high' : ['medical', 'psychological', 'legal', 'financial'].includes(verdict.category ?? '') ? 'medium' : 'low';
    return {
      ...base,
      classicModuleUsed: false,
      noUseReason: 'GATE_BLOCKED',
      riskLevel: risk,
      gateCategory: verdict.category,
      situationIds: [],
      integratedPacks: [],
      insights: [],
      actions: [],
      limitations: [verdict.message ?? 'blocked by the Gate'],
    };
  }

  const context = [text, ...(req.structuredContext?.detectedTopics ?? []), ...(req.structuredContext?.detectedChanges ?? []), ...(req.structuredContext?.detectedQuestions ?? [])].join('\n');
  const { concepts, intent, situations, lenses, valid, citations } = readSituation(context, packIds, lang, lib);
  const situation = situations[0]?.situation;
  const confidence = req.structuredContext || req.contextSummary ? 'C3' : situation ? 'C2' : 'C1';
  const used = lenses.filter((l) => valid.has(l.lens.claim.id)).slice(0, req.maxInsights ?? 4);
  const citationsOf = (claimId: string): Citation[] => citations.filter((c) => c.claim_id === claimId);
  const insights = used.map((l, i) => ({
    insightId: `${opts.requestId}.insight.${i + 1}`,
    packId: l.packId,
    tradition: l.tradition,
    school: SCHOOL_CHAR[l.tradition],
    title: lang === 'zh' ? (k.packs.find((p) => p.manifest.id === l.packId)?.manifest.title_zh ?? l.packId) : (k.packs.find((p) => p.manifest.id === l.packId)?.manifest.title ?? l.packId),
    text: l.lens.text,
    trust: l.lens.trust,
    citations: citationsOf(l.lens.claim.id),
  }));

  const guidance = k.guidance.get(situation?.domain ?? 'default') ?? k.guidance.get('default');
  const path = k.paths.find((p) => p.steps.some((s) => used.some((l) => l.lens.claim.evidence.some((e) => e.passage_id === s.passage_id))));
  const candidates = [
    ...(guidance
      ? [
          { kind: 'practice', text: lang === 'zh' ? guidance.action_zh : guidance.action_en },
          { kind: 'reflection', text: lang === 'zh' ? guidance.question_zh : guidance.question_en },
        ]
      : []),
    ...(path ? [{ kind: 'reading', text: lang === 'zh' ? `沿“${path.title_zh}”读${path.steps.length}段原文。` : `Read the ${path.steps.length} passages of "${path.title_en}".` }] : []),
  ];
  const actions = candidates.slice(0, req.maxActions ?? 2).map((a, i) => ({ actionId: `${opts.requestId}.action.${i + 1}`, ...a }));

  const usedTerms = new Set(contentTerms(context));
  const fragments = (req.evidenceFragments ?? []).map((f) => {
    const ftext = typeof f.text === 'string' ? f.text : '';
    const overlap = ftext ? contentTerms(ftext).filter((t) => usedTerms.has(t)).length : 0;
    return { fragmentId: f.fragmentId, used: overlap > 0, reason: overlap > 0 ? 'shares terms with the situation' : ftext ? 'no overlap with the situation' : 'no text to match' };
  });

  const bundle: Record<string, unknown> = {
    ...base,
    evidenceFragments: fragments,
    classicModuleUsed: true,
    noUseReason: null,
    situationSummary:
      req.privacyMode === 'private'
        ? situation
          ? lang === 'zh' ? situation.title_zh : situation.title_en
          : lang === 'zh' ? '未匹配到已知处境' : 'no known situation matched'
        : text.slice(0, 280),
    userTextSha256: hash(text),
    situationConfidence: confidence,
    intentType: intent.kind,
    riskLevel: 'low',
    situationIds: situations.map((s) => s.situation.id),
    integratedPacks: [...new Set(used.map((l) => l.packId))],
    limitations: [
      ...limitations,
      ...packIds.filter((id) => !used.some((l) => l.packId === id) && !lenses.some((l) => l.packId === id)).map((id) => `${id}: no passage speaks to this situation`),
      'perspectives are lenses on the texts, not advice; they do not replace a doctor, lawyer, therapist or financial adviser',
    ],
    insights,
    actions,
  };
  if (req.synthesize) Object.assign(bundle, synthesize(lib, lang, situation, used, concepts.map((c) => c.id), actions, path));
  return bundle;
}

/**
 * Insights for one request, stored as a snapshot before they are returned (synchronous write;
 * for callers inside a synchronous flow, such as the runtime's report_support mode).
 */
export function buildInsights(req: InsightRequestInput, lib: Library, opts: { requestId: string; ledger: LedgerStore }) {
  const bundle = composeInsights(req, lib, opts);
  const snapshot = saveSnapshot(opts.ledger, { payload: JSON.stringify(bundle), kind: 'insights' });
  return { ...bundle, outputSnapshotId: snapshot.snapshotId };
}

/**
 * buildInsights for the request handlers: the snapshot is written in one transaction with the
 * other snapshots of the same turn of the event loop, and the bundle is returned once it is on
 * disk, so concurrent requests share a disk flush instead of queueing one each.
 */
export async function buildInsightsGrouped(req: InsightRequestInput, lib: Library, opts: { requestId: string; ledger: LedgerStore }) {
  const bundle = composeInsights(req, lib, opts);
  const snapshot = await saveNewSnapshotGrouped(opts.ledger, { value: bundle, kind: 'insights' });
  return { ...bundle, outputSnapshotId: snapshot.snapshotId };
}

function synthesize(
  lib: Library,
  lang: 'zh' | 'en',
  situation: Situation | undefined,
  used: { packId: string; tradition: Tradition; lens: Lens }[],
  conceptIds: string[],
  actions: { text: string }[],
  path: ReadingPath | undefined,
) {
  const k = lib.knowledge;
  const byTradition = new Map(used.map((l) => [l.tradition, l]));
  const ids = [...new Set([...conceptIds, ...(situation?.concept_ids ?? [])])];
  const concepts = ids.map((id) => k.conceptById.get(id)!).filter(Boolean);
  const name = (t: Tradition) => ({ daoist: lang === 'zh' ? '道家' : 'Daoist', confucian: lang === 'zh' ? '儒家' : 'Confucian', buddhist: lang === 'zh' ? '佛家' : 'Buddhist', yangming: lang === 'zh' ? '阳明心学' : 'Yangming' })[t];
  const layer = (layer: 'self' | 'relational' | 'cosmic', traditions: Tradition[], title: string) => {
    const l = traditions.map((t) => byTradition.get(t)).find(Boolean);
    return {
      layer,
      title,
      insight: l ? l.lens.text : lang === 'zh' ? '这一层在所用经典中没有直接材料。' : 'No direct material in the classics used for this layer.',
      axes: l ? lib.retrieval.conceptsOf(l.lens.claim.evidence[0]!.passage_id).map((id) => (lang === 'zh' ? k.conceptById.get(id)?.zh : k.conceptById.get(id)?.en)).filter((x): x is string => Boolean(x)).slice(0, 3) : [],
    };
  };
  const relations = concepts.flatMap((c) => c.relations.map((r) => ({ from: c, ...r })));
  const nonEquivalences = relations
    .filter((r) => r.type === 'non_equivalent')
    .map((r) => {
      const target = k.conceptById.get(r.target);
      return lang === 'zh' ? `${r.from.zh} ≠ ${target?.zh ?? r.target}：${r.note}` : `${r.from.en} \u2260 ${target?.en ?? r.target}: ${r.note}`;
    });
  const engaged = used.map((l) => SCHOOL_CHAR[l.tradition]);
  const all: Tradition[] = ['daoist', 'confucian', 'buddhist', 'yangming'];
  const missing = all.filter((t) => !byTradition.has(t));
  const names = used.map((l) => name(l.tradition));
  return {
    synthesized: {
      overview: situation ? (lang === 'zh' ? situation.tension_zh : situation.tension_en) : lang === 'zh' ? '没有匹配到已知处境，以下综合只依据所引原文。' : 'No known situation matched; this synthesis rests only on the passages cited.',
      layers: [
        layer('self', ['yangming', 'buddhist'], lang === 'zh' ? '自我：心的安顿' : 'Self: settling the mind'),
        layer('relational', ['confucian'], lang === 'zh' ? '关系：与人相处' : 'Relational: living with others'),
        layer('cosmic', ['daoist'], lang === 'zh' ? '天地：顺势与时' : 'Cosmic: the way of things'),
      ],
      traditions: {
        names,
        convergence:
          used.length >= 2
            ? lang === 'zh' ? `${names.join('、')}都把问题转回到自己如何看、如何做。` : `${names.join(', ')} each turn the question back to how one sees and acts.`
            : lang === 'zh' ? '只有一家有材料，谈不上汇合。' : 'Only one tradition has material, so there is no convergence to state.',
        divergence: used.map((l) => `${name(l.tradition)}: ${l.lens.claim.evidence.map((e) => displayLocator(k.passageById.get(e.passage_id)!.locator, lang)).join(', ')}`).join(lang === 'zh' ? '；' : '; '),
      },
      schools: {
        engaged,
        missing: missing.map((t) => SCHOOL_CHAR[t]),
        perSchool: used.map((l) => ({ school: SCHOOL_CHAR[l.tradition], stance: l.lens.text, inferred: l.lens.trust === 'T3' || l.lens.trust === 'T4' })),
      },
      singleTraditionNote:
        used.length === 1
          ? lang === 'zh' ? `只有${names[0]}的经典有材料，其他几家没有可引的原文。` : `Only the ${names[0]} classic has material here; the others have no passage to cite.`
          : null,
      nonEquivalences,
      actionPlan: {
        steps: actions.map((a) => a.text),
        path: path ? (lang === 'zh' ? path.title_zh : path.title_en) : '',
        cadence: lang === 'zh' ? '每天一次，连续七天，然后回头看看' : 'once a day for seven days, then look back',
      },
      sources: used.flatMap((l) => l.lens.claim.evidence.map((e) => ({ id: e.passage_id, title: displayLocator(k.passageById.get(e.passage_id)!.locator, lang), lensId: l.tradition }))),
    },
    dimensionMaterialsCount: relations.length,
  };
}
