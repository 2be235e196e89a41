import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../classics/schemas.js';
import { ServiceError } from '../../platform/errors.js';
import { errorResponses } from '../../platform/openapi.js';
import { V1 } from '../contract.js';
import type { GovernanceDeps } from '../deps.js';
import { EvolutionCandidates } from './candidates.js';
import { ProductPins } from './pins.js';
import { blockedStatus, recordFromCi, recordServiceRuns, RegressionResults } from './regression.js';
import { manifestReadiness } from './releases.js';
import * as S from './schemas.js';
import { fileSignal, signalAuthor } from './signals.js';
import { replay } from './snapshots.js';

const tags = ['evolution-governance'];
const errors = (...extra: number[]) => errorResponses('classics', [400, 401, 429, 500, ...extra]);
const HUMAN_ONLY =
  'X-Actor must name a human (`human:<id>`; `editorial:<id>` counts as human). An ai or system actor, a missing header or a malformed one is refused with';

/** The "Evolution governance" table: signals, triage, candidates, review, approval, regression, replay, manifests, pins, drift. */
export async function evolutionRoutes(app: FastifyInstance, opts: { deps: GovernanceDeps }) {
  const { ledger, issues, lib } = opts.deps;
  const candidates = new EvolutionCandidates(ledger, lib.knowledge);
  const regression = new RegressionResults(ledger);
  const pins = new ProductPins(ledger, lib.knowledge);
  recordServiceRuns(lib, regression);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const release = (id: string | undefined) => {
    const found = id === undefined ? lib.knowledge.currentRelease : lib.knowledge.releaseById.get(id);
    if (!found) throw new ServiceError(404, 'NOT_FOUND', id === undefined ? 'no release is served' : `no release ${id}`);
    return found;
  };

  r.post(
    `${V1}/evolution/signals`,
    {
      schema: {
        summary: 'Record an issue signal; deduplicated and clustered into an issue candidate',
        description:
          'Anyone may signal a problem: X-Actor is optional and ai or system actors are welcome (they detect and propose; they never decide). ' +
          'Without X-Actor the signal is attributed to the bearer credential (`key:<keyId>`); a malformed X-Actor is 400. ' +
          'The fingerprint is the normalised (objectId, problemKind): a signal matching an open or triaged issue candidate joins it (count + 1, `duplicate: true`); ' +
          'otherwise a new issue candidate opens with status open. `cluster` is the normalised objectId, shared by every issue about that object. Triage stays with a human.',
        tags,
        headers: S.ActorHeaders,
        body: S.SignalRequest,
        response: { 201: S.SignalResponse, ...errors() },
      },
    },
    async (request, reply) => {
      const author = signalAuthor(request.headers['x-actor'], request.principal?.keyId);
      return reply.code(201).send(fileSignal(issues, request.body, author));
    },
  );

  r.post(
    `${V1}/evolution/triage`,
    {
      schema: {
        summary: 'Triage an issue candidate: priority and decision (human X-Actor; P0 needs humanReviewed)',
        description:
          `${HUMAN_ONLY} 422 TRIAGE_REJECTED. Sets priority P0-P3 and decision accept, reject or defer; reject moves the issue to rejected, accept and defer to triaged. ` +
          'Priority P0 needs `humanReviewed: true` (422 TRIAGE_REJECTED otherwise); a rejected or closed issue cannot be triaged again (422 TRIAGE_REJECTED). ' +
          'An unknown candidateId is 404. Each triage appends a version of the issue candidate.',
        tags,
        headers: S.ActorHeaders,
        body: S.TriageRequest,
        response: { 200: S.TriageResponse, ...errors(404, 422) },
      },
    },
    async (request) => ({ candidate: issues.triage(request.body, request.headers['x-actor']) }),
  );

  r.post(
    `${V1}/evolution/candidates`,
    {
      schema: {
        summary: 'Propose an evolution candidate: a change to a claim, concept, passage gloss or relation',
        description:
          'X-Actor is required and may be any kind (a missing or malformed one is 422 CANDIDATE_REJECTED). An ai or system proposer makes the candidate ' +
          '`review_required` automatically; a human or editorial proposer makes it `proposed`. Refused with 422 CANDIDATE_REJECTED: a targetId that does not exist in the served release ' +
          '(a relation is named `<conceptId>:<type>:<targetConceptId>`), an empty change, empty evidence, an evidence passage that does not exist, a quote that is not verbatim in its passage, an unknown releaseId. ' +
          '`revision` is the sha256 of the canonical content (targetKind, targetId, change, rationale, evidence; keys sorted); an approval must pin it.',
        tags,
        headers: S.ActorHeaders,
        body: S.CandidateRequest,
        response: { 201: S.CandidateResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send({ candidate: candidates.propose(request.body, request.headers['x-actor']) }),
  );

  r.get(
    `${V1}/evolution/candidates`,
    {
      schema: {
        summary: 'List evolution candidates (filters status, targetKind, releaseId)',
        description: 'Current state of every evolution candidate, oldest first. Statuses: proposed, review_required, changes_requested, reviewed, rejected, approved.',
        tags,
        querystring: S.CandidatesQuery,
        response: { 200: S.CandidateListResponse, ...errors() },
      },
    },
    async (request) => {
      const list = candidates.list(request.query);
      return { total: list.length, candidates: list };
    },
  );

  r.post(
    `${V1}/evolution/candidates/:id/revisions`,
    {
      schema: {
        summary: 'Revise an evolution candidate (extension, not in the 1.1.0 table)',
        description:
          'Replaces change, rationale and evidence of a proposed, review_required, changes_requested or reviewed candidate with a new revision: the candidate goes back to ' +
          'proposed (human author) or review_required (ai or system author), and reviews and approvals of the earlier revision no longer count. Same checks and 422 CANDIDATE_REJECTED ' +
          'as proposing; an identical revision, a rejected or approved candidate are refused too. X-Actor required (any kind). Unknown id: 404.',
        tags,
        headers: S.ActorHeaders,
        params: IdParams,
        body: S.CandidateRevisionRequest,
        response: { 201: S.CandidateResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ candidate: candidates.revise(request.params.id, request.body, request.headers['x-actor']) }),
  );

  r.post(
    `${V1}/evolution/review/decisions`,
    {
      schema: {
        summary: 'Record a review decision on an evolution candidate (human X-Actor)',
        description:
          `${HUMAN_ONLY} 422 REVIEW_DECISION_REJECTED. Appends a review record about the candidate's current revision and moves the candidate: ` +
          'approve -> reviewed, reject -> rejected, request_changes -> changes_requested. Only proposed, review_required and reviewed candidates are reviewed ' +
          '(422 REVIEW_DECISION_REJECTED otherwise; a changes_requested candidate needs a revision first). Unknown candidateId: 404.',
        tags,
        headers: S.ActorHeaders,
        body: S.ReviewRequest,
        response: { 201: S.ReviewResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(candidates.review(request.body, request.headers['x-actor'])),
  );

  r.post(
    `${V1}/evolution/approvals`,
    {
      schema: {
        summary: 'Approve a pinned revision of a reviewed evolution candidate (human X-Actor)',
        description:
          `${HUMAN_ONLY} 422 APPROVAL_REJECTED. \`revision\` must equal the candidate's current revision (a stale revision is 422 APPROVAL_REJECTED), the candidate must be ` +
          'reviewed with an `approve` review of that revision, and not already approved (422 APPROVAL_REJECTED). The approval record pins the revision; ' +
          '`approvalRef` (the approval record id) is what knowledge-state evolve and event transitions cite. The candidate moves to approved. Unknown candidateId: 404.',
        tags,
        headers: S.ActorHeaders,
        body: S.ApprovalRequest,
        response: { 201: S.ApprovalResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(candidates.approve(request.body, request.headers['x-actor'])),
  );

  r.post(
    `${V1}/evolution/regression/results`,
    {
      schema: {
        summary: 'Record a regression result of a critical item, e.g. from CI (extension, not in the 1.1.0 table)',
        description:
          'X-Actor human, editorial or system (a CI job); an ai actor, a missing or malformed header is 422 REGRESSION_RESULT_REJECTED. ' +
          'releaseId defaults to the served release; an unknown release, or an item the release does not declare critical, is 422 REGRESSION_RESULT_REJECTED. ' +
          'The service records gate-self-test and citation-validation itself at every start; the evaluation sets (eval-answerable, eval-unanswerable) come from here.',
        tags,
        headers: S.ActorHeaders,
        body: S.RegressionResultRequest,
        response: { 201: S.RegressionResultResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send({ regressionResult: recordFromCi(lib, regression, request.body, request.headers['x-actor']) }),
  );

  r.get(
    `${V1}/evolution/regression/blocked`,
    {
      schema: {
        summary: 'Whether a release is blocked by its critical regression items',
        description:
          "Blocked when one of the release's criticalItems has no result, or its latest result is NOT_RUN, FLAKY or FAIL; `reasons` names each. " +
          'releaseId defaults to the served release; an unknown release is 404. Results come from the service itself at start and from POST /evolution/regression/results.',
        tags,
        querystring: S.BlockedQuery,
        response: { 200: S.BlockedResponse, ...errors(404) },
      },
    },
    async (request) => blockedStatus(release(request.query.releaseId), regression),
  );

  r.get(
    `${V1}/evolution/historical/replay`,
    {
      schema: {
        summary: 'Exact replay of a stored snapshot; a miss stays a miss',
        description:
          'HIT: `payload` is the stored JSON text byte for byte (with its sha256). An unknown snapshotId is 200 with status MISS: never a fallback to the current knowledge. ' +
          'snapshotId missing: 400.',
        tags,
        querystring: S.ReplayQuery,
        response: { 200: S.ReplayResponse, ...errors() },
      },
    },
    async (request) => replay(ledger, request.query.snapshotId),
  );

  r.get(
    `${V1}/evolution/manifests/:id/ready`,
    {
      schema: {
        summary: 'Readiness of a release impact manifest',
        description:
          'The manifest is the release with this id (404 when unknown). Valid when its fields are present (id, status, createdAt, packs, criticalItems), every pinned pack ' +
          'is loaded with the pinned version and sha256, and every changed item (an evolution candidate with this releaseId, not rejected) has an approval pinning its current revision. ' +
          '`errors` lists every problem.',
        tags,
        params: IdParams,
        response: { 200: S.ManifestReadyResponse, ...errors(404) },
      },
    },
    async (request) => manifestReadiness(lib.knowledge, candidates, release(request.params.id)),
  );

  r.post(
    `${V1}/evolution/products/pins`,
    {
      schema: {
        summary: 'Pin a product to an exact release (human X-Actor)',
        description:
          `${HUMAN_ONLY} 422 PIN_REJECTED. productId must be one of the five products, releaseId a release whose status is released ` +
          '(an unknown, candidate, withdrawn or superseded release is 422 PIN_REJECTED). A pin names an exact release and never moves by itself: only a new pin does, ' +
          'and the earlier pin stays in its history (previousReleaseId).',
        tags,
        headers: S.ActorHeaders,
        body: S.PinRequest,
        response: { 201: S.PinResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send({ pin: pins.pin(request.body, request.headers['x-actor']) }),
  );

  r.get(
    `${V1}/evolution/drift`,
    {
      schema: {
        summary: 'Products whose pin is behind the latest released release (read-only)',
        description:
          'Lists every product whose latest pin is not the newest release with status released. A product never pinned counts as drifted with pinnedReleaseId null. ' +
          'Read-only: nothing is filed, so issueRefs is empty; a drift becomes an issue candidate only through a handoff.',
        tags,
        response: { 200: S.DriftResponse, ...errors() },
      },
    },
    async () => pins.drift(),
  );
}
