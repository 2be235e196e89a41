import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IssueCandidates } from '../../governance/issue-candidates.js';
import { parseActor } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { errorResponses } from '../../platform/openapi.js';
import type { Library } from '../library.js';
import * as S from '../schemas.js';
import { Adapters } from './adapters.js';
import { receiveFeedback } from './feedback.js';
import { runRuntime } from './modes.js';
import { observed, Observations } from './observations.js';
import { orchestrate } from './orchestrate.js';
import { ownerFor, PersonalGraph } from './personal-graph.js';
import * as R from './schemas.js';
import { Workbench } from './workbench.js';

const V1 = '/api/classics/v1';
const V3 = '/api/classics/v3/workbench';
const errors = (...extra: number[]) => errorResponses('classics', [400, 401, 429, 500, ...extra]);

const RUNTIME_DESCRIPTION = [
  'Six modes, each with its own result schema (the response is one of them, or the Gate abstention). Required field per mode, else 400 naming it:',
  '`lookup` objectId (a concept, passage, claim, source or situation id) -> the object, its typed relations, its depth-1 graph neighbourhood, claims, concepts, misreadings, conflicts and citations;',
  '`explore` query -> matched life situations (coverage >= 0.35, at most 3), the concepts named in the query or reached through the situations with their relations, and the illumination of POST /illuminate;',
  '`compare` relationId -> a recorded conflict (e.g. conflict.gewu) or a concept relation `<conceptA>|<type>|<conceptB>` declared on conceptA (`:` also separates); or objectId and query naming two objects (query is the second id). Similarity, difference and nonEquivalence dimensions each carry evidence (passages and claims); when the packs mark the two non_equivalent, `equivalence` is non_equivalent and every similarity carries a caveat: a comparison never equates them;',
  '`source` sourceId -> metadata, edition, grade and a page of passages in reading order, paged by the extension fields `offset` (default 0) and `limit` (1-100, default 20) with `nextOffset` (null on the last page);',
  '`path` pathId -> the reading path, steps in order with why each follows; an optional sourceId anchors it in a source that holds at least one step (else 400);',
  '`report_support` query -> the InsightBundle of POST /insights with synthesize=true over the classic packs in scope (fields at the top level) plus its citations.',
  '`releaseId`: absent or the served release; a known release that is not served, or an unknown one, is 404. `knowledgePackIds`: every id must be a loaded pack (else 400); absent, the default packs of `productId` when it names a product adapter, else every pack.',
  'The scope filters evidence (passages, claims, sources) by pack; the cross-tradition core (concepts, situations, paths, conflicts, misreadings) is always readable; asking for a passage, claim or source, or a path drawing on a pack, outside the scope is 404.',
  '`locale` starting with zh or en picks the language of texts; otherwise the language of `query`, else en. productVersion, viewerClassId, rightsContextId and safetyProfileId are accepted and not used yet.',
  'The Gate applies to `query` in every mode: a blocked query gets 200 with `abstention` {reason GATE_BLOCKED, category, message} and no mode payload. Every call is recorded in GET /runtime/observations.',
].join(' ');

/** Who is recorded as the author of a write: a well-formed X-Actor, else the bearer credential. */
function actorOf(request: FastifyRequest): string {
  const header = request.headers['x-actor'];
  if (header === undefined) return `key:${request.principal?.keyId ?? 'unknown'}`;
  const parsed = parseActor(header);
  if (!parsed.ok) throw new ServiceError(400, 'INVALID_REQUEST', `headers.x-actor: ${parsed.reason}`);
  return parsed.actor.ref;
}

/** Runtime, adapters, observations, feedback, orchestration, workbench (v3) and personal graph. */
export async function runtimeRoutes(app: FastifyInstance, opts: { lib: Library; ledger: LedgerStore; issues: IssueCandidates }) {
  const { lib, ledger, issues } = opts;
  const observations = new Observations();
  const adapters = new Adapters(lib);
  const workbench = new Workbench(ledger, lib);
  const personal = new PersonalGraph(ledger, lib);
  workbench.seed();

  const runObserved = (body: R.RuntimeRequestBody, requestId: string, adapter: string | null = null) =>
    observed(
      observations,
      { mode: body.runtimeMode, productId: body.productId, adapter, releaseId: body.releaseId ?? lib.releaseId },
      () => runRuntime(body, { lib, ledger }, requestId),
      (result) => result.abstention !== null,
    );

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    `${V1}/runtime`,
    {
      schema: {
        summary: 'Unified runtime (lookup, explore, compare, source, path, report_support)',
        description: RUNTIME_DESCRIPTION,
        tags: ['runtime'],
        body: R.RuntimeRequestBody,
        response: { 200: R.RuntimeResult, ...errors(404) },
      },
    },
    async (request) => runObserved(request.body, String(request.id)),
  );

  r.get(
    `${V1}/runtime/adapters`,
    {
      schema: {
        summary: 'Product adapter fixtures',
        description: 'The five products of packs/classics/core/products.json with their request JSON Schema, runtime mapping and response projection.',
        tags: ['runtime'],
        response: { 200: R.AdaptersResponse, ...errors() },
      },
    },
    async () => adapters.list(),
  );

  r.post(
    `${V1}/runtime/adapters/:adapterId/execute`,
    {
      schema: {
        summary: "Run a product's own request through its adapter",
        description:
          "The body is the product's own request, validated against the adapter's requestShape (JSON Schema; a refusal is 400 naming the field). " +
          'It is mapped by runtimeMapping (`<runtimeField>From: <productField>`; productId is the adapter id and knowledgePackIds its defaultPackIds), run exactly as POST /runtime, ' +
          "and the result projected to responseProjection.fields (dotted paths; a path the result lacks is left out; a Gate-blocked request projects to {abstention}). A mapped request missing its mode's field is 400 naming the product's field. Unknown adapter: 404.",
        tags: ['runtime'],
        params: S.AdapterParams,
        body: S.OpenObject,
        response: { 200: R.AdapterExecuteResponse, ...errors(404) },
      },
    },
    async (request) => {
      const { adapterId } = request.params;
      return observed(
        observations,
        { mode: adapters.modeOf(adapterId), productId: adapterId, adapter: adapterId, releaseId: lib.releaseId },
        () => adapters.execute(adapterId, request.body, (runtime) => runRuntime(runtime, { lib, ledger }, String(request.id))),
        (out) => out.response.abstention !== undefined,
      );
    },
  );

  r.get(
    `${V1}/runtime/observations`,
    {
      schema: {
        summary: 'In-process runtime telemetry',
        description:
          'Every POST /runtime and adapter call (and the runtime calls orchestration makes) is recorded in a bounded in-process ring buffer (2000 records; recording never blocks a request; emptied on restart). ' +
          'The summary per mode (count, errors = 4xx/5xx answers, p50/p95/p99 duration in ms by nearest rank) covers the retained records; `recent` lists the latest `limit` (1-200, default 50; beyond is 400), newest first. ' +
          'Requests refused by schema validation before the handler are not recorded.',
        tags: ['runtime'],
        querystring: S.ObservationsQuery,
        response: { 200: R.ObservationsResponse, ...errors() },
      },
    },
    async (request) => observations.report(request.query.limit),
  );

  r.post(
    `${V1}/feedback`,
    {
      schema: {
        summary: 'Feedback; enters the issue flow, never changes knowledge',
        description:
          'Stores a feedback record and files an issue candidate (channel `feedback`) for each target id, else for `product:<productId>`, else for `feedback:general`; ' +
          'the problem kind is `feedback.low-rating` for rating 1-2, else `feedback`, so repeated feedback on one object joins the same open issue. Triage stays with a human; the knowledge never changes.',
        tags: ['feedback'],
        body: S.FeedbackRequest,
        response: { 200: R.FeedbackResponse, ...errors() },
      },
    },
    async (request) => receiveFeedback(ledger, issues, request.body, `key:${request.principal?.keyId ?? 'unknown'}`),
  );

  r.post(
    `${V1}/orchestrate`,
    {
      schema: {
        summary: 'Intent, route, plan, select, assemble, trace and explanation',
        description:
          'Intent (question kind, language, concepts, passage references, the Gate), Route (modes for the kind: textual -> lookup of the named passages, conceptual -> lookup + explore, comparative -> compare, situational -> explore + report_support), ' +
          'Plan (the runtime requests in order, plus a lookup of the personal context), Select (the packs the question names plus the core, else the product default packs, else every pack), Assemble (each request run as POST /runtime; a 4xx of one call is kept as status failed), Trace (each step with its duration), and an explanation. ' +
          'Each live answer is stored as a snapshot (`snapshotId`). `historicalSnapshotId` replays any stored snapshot exactly ({replay: {status: HIT, payload: the stored JSON text}}) or answers {replay: {status: MISS}}; it never computes afresh. ' +
          "`personalContextRef` must be one of the caller's personal-graph references (else 400): a per-user key uses its own owner's (naming another `owner` is 403); a service token names the owner in the extension field `owner` (400 when missing).",
        tags: ['orchestration'],
        body: R.OrchestrateRequestBody,
        response: { 200: R.OrchestrateResponse, ...errors(403) },
      },
    },
    async (request) =>
      orchestrate(request.body, { lib, ledger, personal, run: (body) => runObserved(body, `${request.id}.${randomUUID().slice(0, 8)}`) }, request.principal),
  );

  r.get(
    `${V3}/candidates`,
    {
      schema: {
        summary: 'Workbench candidates (dimensions and patches)',
        description:
          'Dimension and patch candidates stored in the ledger. At first start (no candidate in the ledger) the service seeds drafts derived from the packs: a dimension candidate per similar or contrasts concept relation ' +
          '(relation-dimension material to complete) and patch candidates for concepts with no key passage or no claim. Filters: status draft|reviewed|withdrawn, kind dimension|patch (another value is 400).',
        tags: ['workbench'],
        querystring: R.CandidatesQuery,
        response: { 200: R.CandidatesResponse, ...errors() },
      },
    },
    async (request) => workbench.list(request.query),
  );

  r.post(
    `${V3}/candidates/batch-review`,
    {
      schema: {
        summary: 'Review or withdraw draft candidates in a batch',
        description:
          'Draft candidates become `decision` (reviewed or withdrawn). The changed candidates, one machine review record (ledger kind workbench-review) and one audit entry (evolution audit, logType workbench) are written in one transaction. ' +
          'Ids that are unknown (NOT_FOUND), not in draft (NOT_DRAFT, with their status) or repeated (DUPLICATE) are skipped and listed; `updated` counts what changed (0 writes nothing). The author is X-Actor when given (malformed: 400), else the credential.',
        tags: ['workbench'],
        body: S.BatchReviewRequest,
        response: { 200: R.BatchReviewResponse, ...errors() },
      },
    },
    async (request) => workbench.batchReview(request.body, actorOf(request)),
  );

  r.post(
    `${V3}/objects/:id/withdraw`,
    {
      schema: {
        summary: 'Withdraw a workbench object',
        description:
          'A workbench object is a workbench candidate or an object of the served knowledge (concept, passage, claim, source, situation, reading path, conflict). A candidate moves to withdrawn; a knowledge object gets a withdrawn record (ledger kind workbench-object) for the next release: ' +
          'the served release stays as pinned, the pack files never change. Withdrawing a withdrawn object answers 200 with changed=false. Unknown id: 404. An audit entry is written.',
        tags: ['workbench'],
        params: S.IdParams,
        response: { 200: R.WithdrawObjectResponse, ...errors(404) },
      },
    },
    async (request) => workbench.withdrawObject(request.params.id, actorOf(request)),
  );

  r.post(
    `${V3}/releases/:id/withdraw`,
    {
      schema: {
        summary: 'Withdraw a candidate release',
        description:
          'Any release of packs/classics/releases may be withdrawn: a release-state record (status withdrawn) is appended to the ledger; the release file never changes. Already withdrawn: 200 with changed=false. Unknown release: 404. An audit entry is written.',
        tags: ['workbench'],
        params: S.IdParams,
        response: { 200: R.ReleaseStateResponse, ...errors(404) },
      },
    },
    async (request) => workbench.withdrawRelease(request.params.id, actorOf(request)),
  );

  r.post(
    `${V3}/releases/:id/supersede`,
    {
      schema: {
        summary: 'Supersede a release with a replacement',
        description:
          'The release becomes superseded by replacementReleaseId (a release-state record on the ledger). 404: unknown release or replacement. 400: a release superseding itself, a withdrawn release, a withdrawn replacement, or a replacement that is itself superseded. ' +
          'Superseding again by the same replacement answers 200 with changed=false. An audit entry is written.',
        tags: ['workbench'],
        params: S.IdParams,
        body: S.SupersedeRequest,
        response: { 200: R.ReleaseStateResponse, ...errors(404) },
      },
    },
    async (request) => workbench.supersedeRelease(request.params.id, request.body.replacementReleaseId, actorOf(request)),
  );

  r.post(
    '/api/personal-graph/v1/references',
    {
      schema: {
        summary: "Save a reference in the caller's personal graph",
        description:
          'objectId must name an object of the knowledge (concept, passage, claim, source, situation, reading path or conflict; else 400). A per-user key saves for its own owner (`owner` may be omitted; another owner is 403); ' +
          'a service token must name `owner` (400 when missing). Saving the same object again for the same owner updates the note (created=false).',
        tags: ['personal-graph'],
        body: S.ReferenceRequest,
        response: { 200: R.ReferenceResponse, ...errors(403) },
      },
    },
    async (request) => {
      const owner = ownerFor(request.principal, request.body.owner, 'body.owner');
      return personal.save(owner, request.body, `key:${request.principal?.keyId ?? 'unknown'}`);
    },
  );

  r.get(
    '/api/personal-graph/v1/references',
    {
      schema: {
        summary: "The caller's personal references",
        description: "A per-user key lists its own owner's references (`owner` may be omitted; another owner is 403); a service token must name `owner` (400 when missing). Oldest first.",
        tags: ['personal-graph'],
        querystring: S.ReferencesQuery,
        response: { 200: R.ReferencesResponse, ...errors(403) },
      },
    },
    async (request) => {
      const owner = ownerFor(request.principal, request.query.owner, 'querystring.owner');
      const references = personal.list(owner);
      return { owner, total: references.length, references };
    },
  );
}
