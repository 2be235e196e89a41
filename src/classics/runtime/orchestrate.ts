import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { loadSnapshot, saveSnapshot } from '../../governance/evolution/snapshots.js';
import type { Principal } from '../../platform/auth.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import type { Library } from '../library.js';
import { detectIntent, type Intent } from '../tq/intent.js';
import { resolvePacks } from './modes.js';
import { ownerFor, type PersonalGraph } from './personal-graph.js';
import type { OrchestrateLive, OrchestrateRequestBody, OrchestrateResponse, PlannedCall, RuntimeRequestBody, RuntimeResult } from './schemas.js';
import { relationsBetween } from './views.js';

type Call = z.infer<typeof PlannedCall>;
type Mode = RuntimeRequestBody['runtimeMode'];
type Step = OrchestrateLive['trace'][number]['step'];

export interface OrchestrateDeps {
  lib: Library;
  ledger: LedgerStore;
  personal: PersonalGraph;
  /** Runs one runtime request exactly as POST /runtime does (observed). */
  run: (request: RuntimeRequestBody) => RuntimeResult;
}

const SNAPSHOT_KIND = 'orchestrate';

/** One sentence on what a runtime result holds, for the assembled list and the explanation. */
export function summarize(result: RuntimeResult): string {
  if (result.abstention) return `abstained: ${result.abstention.reason}${result.abstention.category ? ` (${result.abstention.category})` : ''}`;
  switch (result.runtimeMode) {
    case 'lookup':
      return `${result.object.type} ${result.object.label}: ${result.claims.length} claims, ${result.concepts.length} concepts, ${result.relations.length} relations`;
    case 'explore':
      return `${result.matchedSituations.length} situations (${result.matchedSituations.map((s) => s.title).join('; ') || 'none'}), ${result.concepts.length} concepts, ${result.illumination.perspectives.length} perspectives`;
    case 'compare':
      return `${result.compare.subject.left.label} vs ${result.compare.subject.right.label}: ${result.compare.similarity.length} similarity, ${result.compare.difference.length} difference, ${result.compare.nonEquivalence.length} non-equivalence dimensions`;
    case 'source':
      return `${result.source.title_en}: passages ${result.passages.offset + 1}-${result.passages.offset + result.passages.items.length} of ${result.passages.total}`;
    case 'path':
      return `${result.path.title}: ${result.path.length} passages`;
    case 'report_support':
      return `${result.insights.length} insights from ${result.integratedPacks.join(', ') || 'no pack'}${result.synthesized ? ', synthesized' : ''}`;
  }
  return '';
}

/** Route: which modes answer this kind of question, and why. */
function route(intent: Intent, lib: Library, question: string): { calls: Omit<Call, 'order'>[]; reason: string } {
  const base = { productId: '', knowledgePackIds: [] as string[] };
  const call = (mode: Mode, fields: Partial<RuntimeRequestBody>, reason: string): Omit<Call, 'order'> => ({ mode, request: { ...base, runtimeMode: mode, ...fields }, reason });
  const lookupConcepts = intent.concepts.slice(0, 2).map((c) => call('lookup', { objectId: c.id }, `the question names the concept ${c.zh} ${c.en}`));
  switch (intent.kind) {
    case 'textual':
      if (intent.references.length) {
        return {
          calls: intent.references.slice(0, 2).map((p) => call('lookup', { objectId: p.id }, `the question points at ${p.locator}`)),
          reason: 'a textual question pointing at passages: look them up with their claims and relations',
        };
      }
      return { calls: [call('explore', { query: question }, 'no passage is named: explore the question across the traditions')], reason: 'a textual question naming no passage: explore it' };
    case 'conceptual':
      return {
        calls: [...lookupConcepts, call('explore', { query: question }, 'situations and the four-tradition illumination around the concept')],
        reason: 'a question about concepts: look them up, then explore the question',
      };
    case 'comparative': {
      const [a, b] = intent.concepts;
      if (a && b) {
        const declared = relationsBetween(lib.knowledge, a.id, b.id)[0];
        const request = declared ? { relationId: `${declared.source}|${declared.type}|${declared.target}` } : { objectId: a.id, query: b.id };
        return {
          calls: [call('compare', request, declared ? `the packs declare ${declared.type} between ${a.en} and ${b.en}` : `compare ${a.en} and ${b.en} as two objects`)],
          reason: 'a comparative question naming two concepts: compare them dimension by dimension, never equating what the packs keep apart',
        };
      }
      return { calls: [call('explore', { query: question }, 'fewer than two concepts are named: explore the question')], reason: 'a comparative question without two named concepts: explore it' };
    }
    case 'situational':
      return {
        calls: [
          call('explore', { query: question }, 'match the life situation and illuminate it from four traditions'),
          call('report_support', { query: question }, 'a synthesized report: tension, layers, convergence and divergence, non-equivalences'),
        ],
        reason: 'the question describes a life situation: explore it and support it with a synthesized report',
      };
  }
}

/** The personal-graph reference the caller names, looked up as the caller's own (else 400). */
function personalContext(input: z.infer<typeof OrchestrateRequestBody>, deps: OrchestrateDeps, principal: Principal | undefined) {
  if (!input.personalContextRef) return null;
  const owner = ownerFor(principal, input.owner, 'body.owner');
  const reference = deps.personal.ownedBy(owner, input.personalContextRef);
  if (!reference) throw new ServiceError(400, 'INVALID_REQUEST', `body.personalContextRef: ${input.personalContextRef} is not a personal-graph reference of ${owner}`);
  return reference;
}

/**
 * POST /orchestrate: Intent, Route, Plan, Select, Assemble, Trace, and an explanation. The answer
 * is stored as a snapshot; historicalSnapshotId replays a stored snapshot byte for byte or reports
 * a MISS, never computing afresh.
 */
export function orchestrate(input: z.infer<typeof OrchestrateRequestBody>, deps: OrchestrateDeps, principal: Principal | undefined): OrchestrateResponse {
  const { lib } = deps;
  const reference = personalContext(input, deps, principal);
  if (input.historicalSnapshotId) {
    const found = loadSnapshot(deps.ledger, input.historicalSnapshotId);
    return found
      ? { replay: { status: 'HIT', snapshotId: found.snapshotId, kind: found.kind, createdAt: found.createdAt, sha256: found.sha256, payload: found.payload } }
      : { replay: { status: 'MISS', snapshotId: input.historicalSnapshotId, message: `no snapshot ${input.historicalSnapshotId}: a historical replay never falls back to a fresh answer` } };
  }

  const trace: OrchestrateLive['trace'] = [];
  const step = <T>(name: Step, fn: () => T, detail: (out: T) => string): T => {
    const started = performance.now();
    const out = fn();
    trace.push({ step: name, durationMs: Math.round((performance.now() - started) * 1000) / 1000, detail: detail(out) });
    return out;
  };
  const question = input.question.trim();

  const { intent, gate } = step(
    'intent',
    () => {
      const concepts = lib.retrieval.detectConcepts(question);
      const intent = detectIntent(question, lib.knowledge, concepts);
      return { intent, gate: lib.gate.evaluate(question, intent.lang) };
    },
    ({ intent, gate }) => (gate.allowed ? `${intent.kind} (${intent.lang}), ${intent.concepts.length} concepts, ${intent.references.length} passage references` : `blocked by the Gate (${gate.category})`),
  );

  const routed = step(
    'route',
    () => (gate.allowed ? route(intent, lib, question) : { calls: [], reason: `the Gate blocked the question (${gate.category}): nothing is routed` }),
    (r) => `${r.calls.map((c) => c.mode).join(', ') || 'no mode'}: ${r.reason}`,
  );

  const planned = step(
    'plan',
    (): Call[] => {
      const calls = [...routed.calls];
      if (reference && gate.allowed) {
        const objectType = reference.objectType;
        const fields: Partial<RuntimeRequestBody> & { runtimeMode: Mode } =
          objectType === 'path' ? { runtimeMode: 'path', pathId: reference.objectId } : objectType === 'conflict' ? { runtimeMode: 'compare', relationId: reference.objectId } : { runtimeMode: 'lookup', objectId: reference.objectId };
        calls.push({ mode: fields.runtimeMode, request: { productId: '', knowledgePackIds: [], ...fields }, reason: `your saved reference ${reference.label} (${reference.objectId}) as personal context` });
      }
      return calls.map((c, i) => ({ ...c, order: i + 1, request: { ...c.request, productId: input.productId } }));
    },
    (calls) => calls.map((c) => `${c.order}. ${c.mode}`).join('; ') || 'nothing to run',
  );

  const selection = step(
    'select',
    () => {
      const product = lib.knowledge.products.find((p) => p.id === input.productId);
      const known = lib.knowledge.packs.map((p) => p.manifest.id);
      const named = intent.packsNamed.filter((id) => known.includes(id));
      const knowledgePackIds = named.length ? [...named, ...(known.includes('core') ? ['core'] : [])] : resolvePacks(lib, { productId: input.productId });
      const reason = named.length
        ? `the question names ${named.join(', ')}: those packs (and the cross-tradition core)`
        : product
          ? `the default packs of ${product.name}`
          : `every pack: ${input.productId} is not a known product`;
      for (const c of planned) c.request.knowledgePackIds = knowledgePackIds;
      return {
        knowledgePackIds,
        reason,
        personalContext: reference ? { referenceId: reference.id, objectId: reference.objectId, note: reference.note } : null,
      };
    },
    (s) => `${s.knowledgePackIds.join(', ')}: ${s.reason}`,
  );

  const assembled = step(
    'assemble',
    () =>
      planned.map((c) => {
        try {
          const result = deps.run(c.request);
          return { order: c.order, mode: c.mode, status: result.abstention ? ('abstained' as const) : ('ok' as const), summary: summarize(result), result };
        } catch (error) {
          if (!(error instanceof ServiceError) || error.statusCode >= 500) throw error;
          return { order: c.order, mode: c.mode, status: 'failed' as const, summary: `${error.code}: ${error.message}`, result: null };
        }
      }),
    (a) => a.map((x) => `${x.mode} ${x.status}`).join('; ') || 'nothing assembled',
  );

  const orchestrationId = `orc_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const snapshotId = `snap_${orchestrationId}`;
  const explanation = step(
    'trace',
    () => explain(intent, gate.allowed ? null : gate.category, routed.reason, planned, selection, assembled),
    () => `${trace.length + 1} steps traced; stored as snapshot ${snapshotId}`,
  );

  const answer: OrchestrateLive = {
    orchestrationId,
    snapshotId,
    question,
    productId: input.productId,
    releaseId: lib.releaseId,
    intent: {
      kind: gate.allowed ? intent.kind : 'blocked',
      lang: intent.lang,
      concepts: intent.concepts.map((c) => c.id),
      references: intent.references.map((p) => p.id),
      packsNamed: intent.packsNamed,
      gate: { allowed: gate.allowed, category: gate.category },
    },
    routePlan: { modes: planned.map((c) => c.mode), reason: routed.reason, calls: planned },
    selection,
    assembled,
    trace,
    explanation,
  };
  saveSnapshot(deps.ledger, { snapshotId, payload: JSON.stringify(answer), kind: SNAPSHOT_KIND });
  return answer;
}

function explain(
  intent: Intent,
  blockedCategory: string | null,
  routeReason: string,
  planned: Call[],
  selection: { knowledgePackIds: string[]; reason: string; personalContext: unknown },
  assembled: { mode: Mode; status: string; summary: string }[],
): string {
  if (blockedCategory) return `The Gate blocked this question (${blockedCategory}), so no classics were consulted and nothing was assembled.`;
  const parts = [
    `Read as a ${intent.kind} question (${intent.lang === 'zh' ? 'Chinese' : 'English'}).`,
    `Chose ${planned.map((c) => c.mode).join(' then ')} because ${routeReason}.`,
    `Packs: ${selection.knowledgePackIds.join(', ')} (${selection.reason}).`,
    ...(selection.personalContext ? ['Your saved personal-graph reference was added as context.'] : []),
    `Assembled: ${assembled.map((a) => `${a.mode} ${a.status === 'ok' ? '' : `(${a.status}) `}- ${a.summary}`).join('; ')}.`,
  ];
  return parts.join(' ');
}
