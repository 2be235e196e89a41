import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../platform/openapi.js';
import { V1 } from '../contract.js';
import type { GovernanceDeps } from '../deps.js';
import type { Caller } from './callers.js';
import { Discovery, OBSERVATION_FILE } from './discovery.js';
import * as S from './schemas.js';

const tags = ['discovery'];
const errors = (...extra: number[]) => errorResponses('classics', [400, 401, 429, 500, ...extra]);

const caller = (request: FastifyRequest): Caller => ({
  actorHeader: request.headers['x-actor'],
  credential: `key:${request.principal?.keyId ?? 'unknown'}`,
});

const OBSERVED = `Observed: one line in DATA_DIR/${OBSERVATION_FILE}, fsync'ed before the response; a refused call (404/422) is observed with its code and writes no ledger record.`;
const PROPOSER =
  'X-Actor is optional here (the contract does not require it for proposals): without it the credential (`key:<keyId>`) is recorded as the author; a malformed X-Actor is refused with this endpoint\'s 422 code.';

/**
 * The contract's Discovery table (18 endpoints). Each handler hands its validated input and the
 * caller to one Discovery method; the rules live in the plain modules of this folder.
 */
export async function discoveryRoutes(app: FastifyInstance, opts: { deps: GovernanceDeps }) {
  const { ledger, issues, lib, config } = opts.deps;
  const discovery = new Discovery({ ledger, issues, lib, dataDir: config.dataDir });
  app.addHook('onClose', async () => discovery.close());
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    `${V1}/discovery/sources`,
    {
      schema: {
        summary: 'List discovery sources (registered untrusted)',
        description: `Filter by type and trust. A source is untrusted until a human verifies one of its qualifications (then trust is qualified); web, forum and social sources stay untrusted and never formalEvidenceEligible. ${OBSERVED}`,
        tags,
        querystring: S.SourcesQuery,
        response: { 200: S.SourcesResponse, ...errors() },
      },
    },
    async (request) => discovery.listSources(request.query, caller(request)),
  );

  r.post(
    `${V1}/discovery/sources`,
    {
      schema: {
        summary: 'Register a discovery source (untrusted) (422 DISCOVERY_SOURCE_REJECTED)',
        description:
          'Every source registers with trust untrusted and formalEvidenceEligible false. Types web, forum and social are web-type: they need an http/https url and can never back formal evidence. ' +
          '422 DISCOVERY_SOURCE_REJECTED when trust other than untrusted is asked for, the url is not http/https (or carries credentials), a web-type source has no url, or the same source is already registered ' +
          `(same canonical url, or same type and name without a url; details.existingId names it). ${PROPOSER} ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.RegisterSourceRequest,
        response: { 201: S.SourceSchema, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send(discovery.registerSource(request.body, caller(request))),
  );

  r.post(
    `${V1}/discovery/signals`,
    {
      schema: {
        summary: 'Record a discovery signal, deduplicated into a discovery candidate (422 DISCOVERY_SIGNAL_REJECTED)',
        description:
          'Signals about the same objectId (case, width and punctuation folded) and kind join the open candidate (states new, screening, qualified, accepted_for_governance): count + 1 and duplicate: true; ' +
          'otherwise a new candidate opens in state new. A discovery candidate is untrusted, never formal, and not an evolution candidate (no evolution-candidate record is written). ' +
          'Title and summary are injection-checked; findings are flagged on the candidate (injection), never blocked. ' +
          `422 DISCOVERY_SIGNAL_REJECTED for an unknown sourceId, a url that is not http/https, an objectId without letters or digits, a blank summary, or formal: true. ${PROPOSER} ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.SignalRequest,
        response: { 201: S.SignalResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send(discovery.signal(request.body, caller(request))),
  );

  r.get(
    `${V1}/discovery/candidates`,
    {
      schema: {
        summary: 'List discovery candidates (filter by state)',
        description: `States: new, screening, qualified, accepted_for_governance, handed_off, rejected, archived. Oldest first. ${OBSERVED}`,
        tags,
        querystring: S.CandidatesQuery,
        response: { 200: S.CandidatesResponse, ...errors() },
      },
    },
    async (request) => discovery.listCandidates(request.query, caller(request)),
  );

  r.post(
    `${V1}/discovery/candidates/:id/transition`,
    {
      schema: {
        summary: 'Move a discovery candidate along the whitelist (422 DISCOVERY_TRANSITION_DENIED)',
        description:
          'Whitelist: new -> screening | rejected | archived; screening -> qualified | rejected | archived; qualified -> accepted_for_governance | screening | rejected | archived; ' +
          'accepted_for_governance -> archived; handed_off -> archived; rejected -> archived; archived is final. handed_off is reached only through auto-handoff. ' +
          'X-Actor is required (any well-formed kind); a move into or out of accepted_for_governance needs a human or editorial actor. ' +
          `422 DISCOVERY_TRANSITION_DENIED for a move off the whitelist, a missing or malformed X-Actor, or an ai/system actor on accepted_for_governance; 404 for an unknown candidate. ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        params: S.IdParams,
        body: S.TransitionRequest,
        response: { 200: S.CandidateResponse, ...errors(404, 422) },
      },
    },
    async (request) => discovery.transition(request.params.id, request.body, caller(request)),
  );

  r.post(
    `${V1}/discovery/qualifications`,
    {
      schema: {
        summary: 'Open a source qualification (starts not_qualified) (422 QUALIFICATION_REJECTED)',
        description:
          'A qualification starts not_qualified and formalEvidence false. For a web-type source it is created with verifiable: false: it can never be verified. ' +
          `422 QUALIFICATION_REJECTED for an unknown sourceId, status qualified in the request, a blank scope, or a second qualification of the same source and scope (details.existingId). ${PROPOSER} ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.OpenQualificationRequest,
        response: { 201: S.QualificationResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send(discovery.openQualification(request.body, caller(request))),
  );

  r.post(
    `${V1}/discovery/qualifications/:id/verify`,
    {
      schema: {
        summary: 'Verify a qualification (human only) (422 VERIFY_DENIED)',
        description:
          'Needs X-Actor human:<id> or editorial:<id>; the body ({note}) may be omitted. Sets status qualified and formalEvidence true, and moves the source to trust qualified (formalEvidenceEligible true) in the same transaction. ' +
          "422 VERIFY_DENIED for an ai or system actor, a missing or malformed X-Actor, a web-type source's qualification (whoever asks: a web snippet never becomes formal evidence), or a qualification already qualified; " +
          `404 for an unknown qualification. ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        params: S.IdParams,
        body: S.VerifyRequest.nullish(),
        response: { 200: S.QualificationResponse, ...errors(404, 422) },
      },
    },
    async (request) => discovery.verifyQualification(request.params.id, request.body ?? {}, caller(request)),
  );

  r.post(
    `${V1}/discovery/engine/relation`,
    {
      schema: {
        summary: 'Propose a relation (difference and non-equivalence required) (422 RELATION_PROPOSAL_REJECTED)',
        description:
          'Similarity is not a formal relation: difference and nonEquivalence must each hold at least one non-blank statement. The proposal is recorded (formal: false, status proposed) for a later handoff; ' +
          `known says whether each side is a concept of the served packs. 422 RELATION_PROPOSAL_REJECTED without difference or nonEquivalence, for the same subject on both sides, or an unknown candidateRef. ${PROPOSER} ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.RelationRequest,
        response: { 200: S.RelationResponse, ...errors(422) },
      },
    },
    async (request) => discovery.relation(request.body, caller(request)),
  );

  r.post(
    `${V1}/discovery/engine/conflict`,
    {
      schema: {
        summary: 'Mark a conflict (never resolved here)',
        description:
          'Records a conflict proposal with status marked, resolved false and resolution null, whatever the request says; resolution belongs to governance. Two to ten positions. ' +
          `The contract lists 200 only, so a malformed X-Actor or an unknown candidateRef is a 400 INVALID_REQUEST. ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.ConflictRequest,
        response: { 200: S.ConflictResponse, ...errors() },
      },
    },
    async (request) => discovery.conflict(request.body, caller(request)),
  );

  r.post(
    `${V1}/discovery/engine/gap`,
    {
      schema: {
        summary: 'Annotate a gap (never filled here)',
        description:
          'Records a gap proposal with status annotated, filled false and fill null: no content is generated for the gap. ' +
          `The contract lists 200 only, so a malformed X-Actor or an unknown candidateRef is a 400 INVALID_REQUEST. ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.GapRequest,
        response: { 200: S.GapResponse, ...errors() },
      },
    },
    async (request) => discovery.gap(request.body, caller(request)),
  );

  r.post(
    `${V1}/discovery/handoff`,
    {
      schema: {
        summary: 'Hand a discovery over to governance (422 HANDOFF_DENIED)',
        description:
          'Links a discovery candidate (discoveryCandidateRef) or an engine proposal (proposalRef) to governance records that already exist (governanceRefs: issue candidates, evolution candidates, reviews, approvals, conflicts, states, events, audit records; each is checked on the ledger). ' +
          'The candidate keeps its state and gains the handoff id; nothing is triaged. ' +
          `422 HANDOFF_DENIED without governance references, with a reference that does not exist, with nothing to hand off, or for an unknown, rejected or archived candidate or unknown proposal. ${PROPOSER} ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.HandoffRequest,
        response: { 201: S.HandoffResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send(discovery.handoff(request.body, caller(request))),
  );

  r.post(
    `${V1}/discovery/auto-handoff`,
    {
      schema: {
        summary: 'Hand an accepted discovery candidate over to governance (422 AUTO_HANDOFF_DENIED)',
        description:
          'Takes a candidate in accepted_for_governance, files an issue candidate through the handoff channel (deduplicated like every issue candidate: same object and problem kind `discovery:<signal kind>` joins an open one), ' +
          'writes the handoff record and moves the candidate to handed_off. Triage stays manual: the issue candidate is open, unprioritised and humanReviewed false; P0 still needs humanReviewed at triage. ' +
          `Any well-formed actor may call it (a scheduled job included): the human decision was the move to accepted_for_governance. 422 AUTO_HANDOFF_DENIED for an unknown candidate or one in any other state (already handed off included). ${PROPOSER} ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.AutoHandoffRequest,
        response: { 201: S.AutoHandoffResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send(discovery.autoHandoff(request.body, caller(request))),
  );

  r.post(
    `${V1}/discovery/trust/injection-check`,
    {
      schema: {
        summary: 'Flag prompt injection in submitted text (never blocks)',
        description:
          'Flags instruction overrides and role/system markers (Chinese and English), invisible and control characters, encoded payloads (base64, hex, percent, HTML entities, escapes) that decode to an override or a marker, and markup that hides text. ' +
          'blocked is always false and the text is neither stored nor changed. Classical passages of the packs are not flagged. Evaluation figures: docs/discovery.md. ' +
          `Not a ledger write. ${OBSERVED} (The line records whether the text was flagged, never the text.)`,
        tags,
        body: S.InjectionCheckRequest,
        response: { 200: S.InjectionCheckResponse, ...errors() },
      },
    },
    async (request) => discovery.injectionCheck(request.body, caller(request)),
  );

  r.post(
    `${V1}/discovery/open-web/search`,
    {
      schema: {
        summary: 'Ingest caller-supplied web results as untrusted candidates (422 WEB_RESULT_REJECTED)',
        description:
          "No outbound call by default: the caller submits its query and the results its own search returned (provider caller-supplied, outboundCall false); a search backend can be configured later behind the same provider interface. " +
          'Each valid result (http/https url without credentials, non-blank title and snippet) becomes an untrusted, never-formal discovery candidate (origin open-web, deduplicated by canonical url, injection findings flagged); invalid results are listed in rejected. ' +
          `422 WEB_RESULT_REJECTED for a blank query, no results, or no valid result (nothing is written). ${PROPOSER} ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.OpenWebRequest,
        response: { 201: S.OpenWebResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send(await discovery.openWeb(request.body, caller(request))),
  );

  r.post(
    `${V1}/discovery/external-packs`,
    {
      schema: {
        summary: 'Register an external pack (never formal) (422 EXTERNAL_PACK_REJECTED)',
        description:
          'Registers an external pack manifest as untrusted and never formal; it is not served as classics knowledge. Manifest: id (lowercase slug), version (semver), title, publisher, license, files [{name, sha256 (64 hex)}] (at least one, names unique), optional homepage (http/https), description, traditions. ' +
          `422 EXTERNAL_PACK_REJECTED for an invalid manifest (details.problems lists each), formal: true, an id of a served pack, or an id and version already registered. ${PROPOSER} ${OBSERVED}`,
        tags,
        headers: S.ActorHeaders,
        body: S.ExternalPackRequest,
        response: { 201: S.ExternalPackResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send(discovery.registerExternalPack(request.body, caller(request))),
  );

  r.post(
    `${V1}/discovery/agent/verify-tool`,
    {
      schema: {
        summary: 'Whether an AI agent may make a tool call',
        description:
          "Answers for an AI agent's intended call (method and path of this service): reads and proposals are allowed; governance writes (triage, reviews, approvals, pins, state create/evolve/rollback, graph node creation, conflict resolution, event and candidate transitions, qualification verify, every handoff, audit writes, workbench and atlas admin operations) are not; " +
          `an unknown call is refused. The class comes from the service's own table, not from the agent's description. Read-only: nothing is recorded on the ledger. ${OBSERVED}`,
        tags,
        body: S.VerifyToolRequest,
        response: { 200: S.VerifyToolResponse, ...errors() },
      },
    },
    async (request) => discovery.verifyTool(request.body, caller(request)),
  );

  r.get(
    `${V1}/discovery/products/matrix`,
    {
      schema: {
        summary: 'Five-product discovery capability matrix',
        description: `The five products of the served release (packs/classics/core/products.json) with every discovery capability as true or false, and the endpoint behind each capability. Descriptive: it does not gate calls. ${OBSERVED}`,
        tags,
        response: { 200: S.MatrixResponse, ...errors() },
      },
    },
    async (request) => discovery.productsMatrix(caller(request)),
  );

  r.get(
    `${V1}/discovery/observation`,
    {
      schema: {
        summary: 'Discovery observation summary, rebuilt from the JSONL log',
        description:
          `Summary of DATA_DIR/${OBSERVATION_FILE}: rebuilt from the file at start and kept current. A torn or corrupt line is skipped and counted (skipped), never fatal. ` +
          'Counts by operation (ok/refused), refusal code, actor kind (human, editorial, ai, system, credential when no X-Actor was sent, malformed) and injection checks. Reading the summary is not itself observed.',
        tags,
        response: { 200: S.ObservationResponse, ...errors() },
      },
    },
    async () => discovery.observationSummary(),
  );
}
