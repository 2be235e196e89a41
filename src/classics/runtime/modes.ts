import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { requireServedRelease } from '../catalog.js';
import { illuminate } from '../illumination/illuminate.js';
import type { Library } from '../library.js';
import { TRADITIONS, type Claim, type Passage } from '../model.js';
import { languageOf } from '../text.js';
import { SITUATION_FLOOR } from '../tq/evidence.js';
import { compareMode } from './compare.js';
import { reportSupport } from './report.js';
import type { BlockedResult, ExploreResult, LookupResult, PathResult, RuntimeRequestBody, RuntimeResult, SourceResult } from './schemas.js';
import {
  citationsOf,
  claimsAbout,
  claimsInScope,
  claimView,
  conceptRef,
  conflictsOf,
  conflictView,
  inScope,
  misreadingView,
  passageRef,
  relationsOf,
  sourceView,
  type View,
} from './views.js';

export type RuntimeMode = RuntimeRequestBody['runtimeMode'];

export interface RuntimeDeps {
  lib: Library;
  ledger: LedgerStore;
}

const invalid = (field: string, message: string) => new ServiceError(400, 'INVALID_REQUEST', `body.${field}: ${message}`);
const notFound = (message: string) => new ServiceError(404, 'NOT_FOUND', message);
const present = (value: string | undefined) => value !== undefined && value.trim() !== '';

/** The field each mode cannot run without; compare needs relationId, or objectId and query. */
export function requireModeFields(req: Pick<RuntimeRequestBody, 'runtimeMode' | 'objectId' | 'query' | 'relationId' | 'sourceId' | 'pathId'>) {
  const need = (field: 'objectId' | 'query' | 'sourceId' | 'pathId') => {
    if (!present(req[field])) throw invalid(field, `required when runtimeMode is ${req.runtimeMode}`);
  };
  switch (req.runtimeMode) {
    case 'lookup':
      return need('objectId');
    case 'explore':
    case 'report_support':
      return need('query');
    case 'source':
      return need('sourceId');
    case 'path':
      return need('pathId');
    case 'compare':
      if (present(req.relationId)) return;
      if (!present(req.objectId)) throw invalid('relationId', 'required when runtimeMode is compare (or objectId and query naming two objects)');
      if (!present(req.query)) throw invalid('query', 'required when runtimeMode is compare with objectId (the id of the second object), unless relationId is given');
  }
}

/** knowledgePackIds as asked (every id must be a loaded pack), else the product's default packs, else every pack. */
export function resolvePacks(lib: Library, req: Pick<RuntimeRequestBody, 'knowledgePackIds' | 'productId'>): string[] {
  const known = lib.knowledge.packs.map((p) => p.manifest.id);
  if (req.knowledgePackIds?.length) {
    const unknown = req.knowledgePackIds.filter((id) => !known.includes(id));
    if (unknown.length) throw invalid('knowledgePackIds', `unknown pack ${unknown.map((id) => `"${id}"`).join(', ')} (known: ${known.join(', ')})`);
    return [...new Set(req.knowledgePackIds)];
  }
  const product = lib.knowledge.products.find((p) => p.id === req.productId);
  const defaults = product?.defaultPackIds.filter((id) => known.includes(id));
  return defaults?.length ? defaults : known;
}

/** `locale` when it names zh or en (zh-CN, en-GB ...), else the language of the query, else en. */
export function resolveLang(locale: string | undefined, query: string | undefined): 'zh' | 'en' {
  const l = locale?.trim().toLowerCase();
  if (l?.startsWith('zh')) return 'zh';
  if (l?.startsWith('en')) return 'en';
  return query && query.trim() ? languageOf(query) : 'en';
}

function lookup(view: View, objectId: string): Omit<LookupResult, 'runtimeMode' | 'productId' | 'releaseId' | 'locale' | 'knowledgePackIds' | 'abstention'> {
  const { lib, lang } = view;
  const k = lib.knowledge;
  const node = lib.graph.nodes.get(objectId);
  if (!node) throw notFound(`no object ${objectId} (a concept, passage, claim, source or situation id)`);
  const outOfScope = (packId: string) => notFound(`${node.type} ${objectId} belongs to pack ${packId}, outside knowledgePackIds`);
  let object: LookupResult['object'];
  let claims: Claim[] = [];
  let conceptIds: string[] = [];
  switch (node.type) {
    case 'passage': {
      const p = k.passageById.get(objectId)!;
      if (!inScope(view, p.packId)) throw outOfScope(p.packId);
      object = { type: 'passage', id: p.id, label: p.locator, locator: p.locator, text: p.text, en: p.en ?? null, title: p.title ?? null, sourceId: p.sourceId, packId: p.packId, tradition: p.tradition };
      claims = k.claimsByPassage.get(p.id) ?? [];
      conceptIds = lib.retrieval.conceptsOf(p.id);
      break;
    }
    case 'concept': {
      const c = k.conceptById.get(objectId)!;
      object = {
        type: 'concept',
        id: c.id,
        label: node.label,
        zh: c.zh,
        zh_traditional: c.zh_traditional,
        pinyin: c.pinyin,
        en: c.en,
        aliases: c.aliases,
        tradition: c.tradition,
        definition: lang === 'zh' ? c.definition_zh : c.definition_en,
        keyLocators: c.key_locators,
      };
      claims = claimsAbout(lib, c.id);
      conceptIds = relationsOf(view, c).map((r) => (r.direction === 'outgoing' ? r.target : r.source));
      break;
    }
    case 'claim': {
      const c = k.claimById.get(objectId)!;
      if (!inScope(view, c.packId)) throw outOfScope(c.packId);
      object = {
        type: 'claim',
        id: c.id,
        label: node.label,
        statement: lang === 'zh' ? c.statement_zh : c.statement_en,
        claim_type: c.claim_type,
        trust_level: c.trust_level,
        truth_boundary: c.truth_boundary,
        perspective: c.perspective,
        packId: c.packId,
        evidence: c.evidence.map((e) => ({ passageId: e.passage_id, locator: k.passageById.get(e.passage_id)?.locator ?? '', quote: e.quote })),
      };
      claims = [c];
      conceptIds = c.concept_ids ?? [];
      break;
    }
    case 'source': {
      const s = k.sources.get(objectId)!;
      if (!inScope(view, s.packId)) throw outOfScope(s.packId);
      object = { type: 'source', label: node.label, ...sourceView(lib, s) };
      break;
    }
    case 'situation': {
      const s = k.situationById.get(objectId)!;
      object = {
        type: 'situation',
        id: s.id,
        label: node.label,
        title: lang === 'zh' ? s.title_zh : s.title_en,
        domain: s.domain,
        tension: lang === 'zh' ? s.tension_zh : s.tension_en,
        phrasings: lang === 'zh' ? s.phrasings_zh : s.phrasings_en,
      };
      claims = Object.values(s.perspectives).flatMap((v) => (v?.passage_ids ?? []).flatMap((id) => k.claimsByPassage.get(id) ?? []));
      conceptIds = s.concept_ids ?? [];
      break;
    }
  }
  const kept = claimsInScope(view, claims, 20);
  const concepts = [...new Set(conceptIds)].map((id) => k.conceptById.get(id)).filter((c) => !!c);
  const conceptSet = new Set([...concepts.map((c) => c.id), ...(node.type === 'concept' ? [objectId] : [])]);
  const locator = node.type === 'passage' ? node.locator : undefined;
  const misreadings = k.misreadings.filter((m) => m.concept_ids.some((id) => conceptSet.has(id)) || (locator !== undefined && m.evidence_locators.includes(locator)));
  const walk = lib.graph.walk([objectId], 1, { nodeLimit: 100 });
  const visible = new Set(
    walk.nodes
      .filter((n) => {
        if (n.type === 'passage') return inScope(view, k.passageById.get(n.id)!.packId);
        if (n.type === 'claim') return inScope(view, k.claimById.get(n.id)!.packId);
        if (n.type === 'source') return inScope(view, k.sources.get(n.id)!.packId);
        return true;
      })
      .map((n) => n.id),
  );
  return {
    object,
    relations: node.type === 'concept' ? relationsOf(view, k.conceptById.get(objectId)!) : [],
    graph: {
      nodes: walk.nodes.filter((n) => visible.has(n.id)),
      edges: walk.edges.filter((e) => visible.has(e.source) && visible.has(e.target)),
      truncated: walk.truncated,
    },
    claims: kept.map((c) => claimView(view, c)),
    concepts: concepts.map((c) => conceptRef(view, c)),
    misreadings: misreadings.map((m) => misreadingView(view, m)),
    conflicts: conflictsOf(lib, kept).map((c) => conflictView(view, c)),
    citations: citationsOf(lib, kept),
  };
}

function explore(view: View, query: string, requestId: string): Pick<ExploreResult, 'query' | 'matchedSituations' | 'concepts' | 'illumination'> {
  const { lib, lang } = view;
  const k = lib.knowledge;
  const matched = lib.retrieval.matchSituations(query, 3).filter((m) => m.coverage >= SITUATION_FLOOR);
  const passages = (ids: string[]) => ids.map((id) => k.passageById.get(id)).filter((p): p is Passage => !!p && inScope(view, p.packId));
  const detected = lib.retrieval.detectConcepts(query);
  const reached = matched.flatMap((m) => m.situation.concept_ids ?? []).filter((id) => !detected.some((c) => c.id === id));
  const concepts = [
    ...detected.map((c) => ({ concept: c, detected: true })),
    ...[...new Set(reached)].map((id) => ({ concept: k.conceptById.get(id), detected: false })).filter((x) => !!x.concept),
  ];
  return {
    query,
    matchedSituations: matched.map(({ situation: s, coverage }) => ({
      id: s.id,
      title: lang === 'zh' ? s.title_zh : s.title_en,
      domain: s.domain,
      tension: lang === 'zh' ? s.tension_zh : s.tension_en,
      coverage: Math.round(coverage * 1000) / 1000,
      perspectives: TRADITIONS.flatMap((t) => {
        const v = s.perspectives[t];
        return v ? [{ tradition: t, text: lang === 'zh' ? v.zh : v.en, passages: passages(v.passage_ids).map(passageRef) }] : [];
      }),
      conceptIds: s.concept_ids ?? [],
    })),
    concepts: concepts.map(({ concept, detected: d }) => ({ ...conceptRef(view, concept!), relations: relationsOf(view, concept!), detected: d })),
    illumination: illuminate({ query }, lib, `il_${requestId}`),
  };
}

export const SOURCE_PAGE = { limit: 20, max: 100 };

function source(view: View, sourceId: string, offset = 0, limit = SOURCE_PAGE.limit): Pick<SourceResult, 'source' | 'passages'> {
  const { lib } = view;
  const s = lib.knowledge.sources.get(sourceId);
  if (!s) throw notFound(`no source ${sourceId}`);
  if (!inScope(view, s.packId)) throw notFound(`source ${sourceId} belongs to pack ${s.packId}, outside knowledgePackIds`);
  const all = lib.knowledge.passages.filter((p) => p.sourceId === s.id);
  const items = all.slice(offset, offset + limit);
  return {
    source: sourceView(lib, s),
    passages: { offset, limit, total: all.length, nextOffset: offset + limit < all.length ? offset + limit : null, items: items.map(passageRef) },
  };
}

function path(view: View, pathId: string, sourceId: string | undefined): Pick<PathResult, 'path' | 'source' | 'claims' | 'citations'> {
  const { lib, lang } = view;
  const k = lib.knowledge;
  const found = k.paths.find((p) => p.id === pathId);
  if (!found) throw notFound(`no reading path ${pathId}`);
  const steps = found.steps.map((s) => ({ step: s, passage: k.passageById.get(s.passage_id)! })).filter((s) => s.passage);
  const outside = [...new Set(steps.map((s) => s.passage.packId).filter((id) => !inScope(view, id)))];
  if (outside.length) throw notFound(`reading path ${pathId} draws on pack ${outside.join(', ')}, outside knowledgePackIds`);
  let anchor: PathResult['source'] = null;
  if (present(sourceId)) {
    const s = k.sources.get(sourceId!.trim());
    if (!s) throw notFound(`no source ${sourceId}`);
    if (!steps.some((x) => x.passage.sourceId === s.id)) throw invalid('sourceId', `no passage of reading path ${pathId} is in source ${s.id}`);
    anchor = sourceView(lib, s);
  }
  const claims = claimsInScope(
    view,
    steps.flatMap((s) => k.claimsByPassage.get(s.passage.id) ?? []),
    40,
  );
  return {
    path: {
      id: found.id,
      title: lang === 'zh' ? found.title_zh : found.title_en,
      description: lang === 'zh' ? found.description_zh : found.description_en,
      tradition: found.tradition,
      length: steps.length,
      steps: steps.map((s, i) => ({ order: i + 1, passage: passageRef(s.passage), why: lang === 'zh' ? s.step.why_zh : s.step.why_en, follows: i ? steps[i - 1]!.passage.id : null })),
    },
    source: anchor,
    claims: claims.map((c) => claimView(view, c)),
    citations: citationsOf(lib, claims),
  };
}

/**
 * POST /runtime: pin the release, resolve the packs and the language, check the mode's required
 * field, run the Gate over `query`, then the mode. A Gate-blocked query is a 200 abstention.
 */
export function runRuntime(req: RuntimeRequestBody, deps: RuntimeDeps, requestId: string): RuntimeResult {
  const { lib } = deps;
  const releaseId = requireServedRelease(lib, req.releaseId);
  const knowledgePackIds = resolvePacks(lib, req);
  requireModeFields(req);
  const query = req.query?.trim();
  const lang = resolveLang(req.locale, query);
  const envelope = { productId: req.productId, releaseId, locale: lang, knowledgePackIds };
  if (query) {
    const verdict = lib.gate.evaluate(query, languageOf(query));
    if (!verdict.allowed) {
      const blocked: BlockedResult = {
        runtimeMode: req.runtimeMode,
        ...envelope,
        abstention: { reason: 'GATE_BLOCKED', category: verdict.category, message: verdict.message ?? '' },
      };
      return blocked;
    }
  }
  const view: View = { lib, lang, packIds: new Set(knowledgePackIds) };
  switch (req.runtimeMode) {
    case 'lookup':
      return { runtimeMode: 'lookup', ...envelope, abstention: null, ...lookup(view, req.objectId!.trim()) };
    case 'explore':
      return { runtimeMode: 'explore', ...envelope, abstention: null, ...explore(view, query!, requestId) };
    case 'compare':
      return { runtimeMode: 'compare', ...envelope, abstention: null, ...compareMode(view, { relationId: req.relationId?.trim() || undefined, objectId: req.objectId, query }) };
    case 'source':
      return { runtimeMode: 'source', ...envelope, abstention: null, ...source(view, req.sourceId!.trim(), req.offset, req.limit) };
    case 'path':
      return { runtimeMode: 'path', ...envelope, abstention: null, ...path(view, req.pathId!.trim(), req.sourceId) };
    case 'report_support':
      return { runtimeMode: 'report_support', ...envelope, abstention: null, ...reportSupport(view, deps.ledger, { query: query!, productId: req.productId, knowledgePackIds }, requestId) };
  }
}
