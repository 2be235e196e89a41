import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../classics/schemas.js';
import { parseActor } from '../../platform/actor.js';
import { ServiceError } from '../../platform/errors.js';
import { errorResponses } from '../../platform/openapi.js';
import { V1 } from '../contract.js';
import type { GovernanceDeps } from '../deps.js';
import { ChangeSignals } from './change-signals.js';
import { DriftSignals } from './drift.js';
import { GraphEvolution } from './graph-evolution.js';
import * as S from './schemas-part1.js';
import { KnowledgeStates } from './state.js';

/*
 * Knowledge evolution, part 1: change signals, knowledge states, semantic drift and graph
 * evolution. Routes only translate HTTP to the domain modules; every rule lives there and every
 * write goes through the append-only ledger (Records / IssueCandidates). docs/governance-knowledge-1.md
 * describes the records, states, moves and codes.
 */

const tags = ['knowledge-evolution'];
const errors = (...extra: number[]) => errorResponses('classics', [400, 401, 429, 500, ...extra]);

const HUMAN_ONLY =
  'Needs `X-Actor: human:<id>` (or `editorial:<id>`, which counts as human here); ai and system actors, a missing header and a ' +
  'malformed one are refused with the 422 code below and nothing is written.';
const PROPOSER =
  '`X-Actor` is optional: any kind (ai and system included) may send it and is recorded as the author; without it the bearer ' +
  'credential (`key:<keyId>`) is recorded; a malformed X-Actor is 400.';

/** Author of a signal, proposal or handoff: the X-Actor when sent (any kind), else the bearer credential. */
function proposer(request: FastifyRequest): string {
  const header = request.headers['x-actor'];
  if (header === undefined || header === '') return `key:${request.principal?.keyId ?? 'unknown'}`;
  const parsed = parseActor(header);
  if (!parsed.ok) throw new ServiceError(400, 'INVALID_REQUEST', `header x-actor: ${parsed.reason}`);
  return parsed.actor.ref;
}

export async function knowledgeRoutes(app: FastifyInstance, opts: { deps: GovernanceDeps }) {
  const { ledger, issues, lib } = opts.deps;
  const changes = new ChangeSignals(ledger, issues, lib);
  const states = new KnowledgeStates(ledger);
  const drift = new DriftSignals(ledger, issues, lib);
  const graph = new GraphEvolution(ledger, issues, lib);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /* Change signals */

  r.post(
    `${V1}/evolution/change-signals`,
    {
      schema: {
        summary: 'Record a change signal (false-change filter, qualification questions, priority)',
        description:
          'Detection is not a decision: the signal is recorded either way (201). The false-change filter records it with ' +
          '`accepted: false` and `filter.reason` when before and after are identical (`unchanged`), differ only in whitespace ' +
          '(`whitespace`), only in punctuation and whitespace (`punctuation`), only in traditional vs simplified Han characters ' +
          '(`script`), or when an accepted signal on the same objectId has the same normalised after (`duplicate`, with `duplicateOf`). ' +
          'Otherwise `accepted: true` with 2-4 `qualificationQuestions` and a suggested `priority`: P0 the text of a grade-A source, ' +
          'P1 a passage of a grade B/C source, a concept, or a claim at T0-T2, P2 a claim at T3/T4, a source or a situation, P3 an ' +
          `object not in the served release. Missing objectId, before, after or source: 422 CHANGE_DETECTION_REJECTED. ${PROPOSER}`,
        tags,
        body: S.ChangeSignalRequest,
        response: { 201: S.ChangeSignalResponse, ...errors(422) },
      },
    },
    async (request, reply) => {
      const signal = changes.detect(request.body, proposer(request));
      return reply.code(201).send({ signal, accepted: signal.accepted });
    },
  );

  r.get(
    `${V1}/evolution/change-signals`,
    {
      schema: {
        summary: 'List change signals',
        description: 'Current state of every change signal, oldest first. Filters: `status` (filtered, open, handed_off) and `objectId`.',
        tags,
        querystring: S.ChangeSignalsQuery,
        response: { 200: S.ChangeSignalsResponse, ...errors() },
      },
    },
    async (request) => {
      const signals = changes.list(request.query);
      return { total: signals.length, signals };
    },
  );

  r.post(
    `${V1}/evolution/change-signals/:id/handoff`,
    {
      schema: {
        summary: 'Hand a change signal to governance',
        description:
          'Files an issue candidate through the `system` channel (problemKind `content-change`; an open candidate with the same ' +
          'object and kind is joined, count + 1) and marks the signal `handed_off`. Triage stays manual. A filtered signal or one ' +
          `already handed off: 422 CHANGE_HANDOFF_DENIED; unknown id: 404. ${PROPOSER}`,
        tags,
        params: IdParams,
        response: { 201: S.ChangeHandoffResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const { record, issueCandidate, note } = changes.handoff(request.params.id, proposer(request));
      return reply.code(201).send({ signal: record, issueCandidate, note });
    },
  );

  /* Knowledge state */

  r.post(
    `${V1}/evolution/state`,
    {
      schema: {
        summary: 'Create a knowledge state (version 1)',
        description:
          'Creates version 1 (v1) of the state of `objectId`; the state id is the objectId. Needs a well-formed `X-Actor` of any kind. ' +
          '422 STATE_REJECTED when X-Actor is missing or malformed, objectId is missing, content is not a JSON object, or a state ' +
          'for objectId exists already.',
        tags,
        body: S.StateCreateRequest,
        response: { 201: S.StateResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send({ state: states.create(request.body, request.headers['x-actor']) }),
  );

  r.post(
    `${V1}/evolution/state/:id/evolve`,
    {
      schema: {
        summary: 'Evolve a knowledge state (human X-Actor and approvalRef)',
        description:
          `Appends the next version with the new content; the previous version is kept. ${HUMAN_ONLY} \`approvalRef\` must name an ` +
          'approval record (POST /evolution/approvals) whose targetId is this objectId, written by a human, not revoked and not ' +
          'already applied to this state; content must be a JSON object. Otherwise 422 STATE_EVOLVE_DENIED. Unknown state: 404.',
        tags,
        params: IdParams,
        body: S.StateEvolveRequest,
        response: { 201: S.StateEvolveResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(states.evolve(request.params.id, request.body, request.headers['x-actor'])),
  );

  r.post(
    `${V1}/evolution/state/:id/rollback`,
    {
      schema: {
        summary: 'Roll a knowledge state back (human X-Actor)',
        description:
          'Appends a NEW version whose content equals that of `toVersion` and which carries `rolledBackToVersion`; no version is ' +
          `deleted or changed. ${HUMAN_ONLY} A missing or unknown toVersion, or the current version: 422 STATE_ROLLBACK_DENIED. Unknown state: 404.`,
        tags,
        params: IdParams,
        body: S.StateRollbackRequest,
        response: { 201: S.StateRollbackResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(states.rollback(request.params.id, request.body, request.headers['x-actor'])),
  );

  r.get(
    `${V1}/evolution/state/:id/history`,
    {
      schema: {
        summary: 'Immutable history of a knowledge state',
        description: 'Every version of the state, oldest first, exactly as appended (create, evolve, rollback). Unknown state: 404.',
        tags,
        params: IdParams,
        response: { 200: S.StateHistoryResponse, ...errors(404) },
      },
    },
    async (request) => ({ objectId: request.params.id, history: states.history(request.params.id) }),
  );

  r.get(
    `${V1}/evolution/state/compare`,
    {
      schema: {
        summary: 'Compare two versions of a knowledge state',
        description:
          'Query: `objectId`, `from` and `to` (a version number, `2` or `v2`), all required (400 when missing). The diff lists the ' +
          'top-level keys of content: changed, removed (in from only), added (in to only) and unchanged; values compare as JSON ' +
          'regardless of key order. Unknown state or version: 404.',
        tags,
        querystring: S.StateCompareQuery,
        response: { 200: S.StateCompareResponse, ...errors(404) },
      },
    },
    async (request) => states.compare(request.query.objectId, request.query.from, request.query.to),
  );

  /* Semantic drift */

  r.post(
    `${V1}/evolution/semantic-drift`,
    {
      schema: {
        summary: 'Record a semantic drift signal',
        description:
          'Four layers (lexical, conceptual, interpretive, practical) and six kinds (broadening, narrowing, amelioration, pejoration, ' +
          'reinterpretation, conflation). Grounds are similarity, usage, citation or commentary; a non-similarity ground needs a ref ' +
          'or a note. Similarity is not meaning: a signal whose only grounds are similarity is refused. Missing objectId, layer, ' +
          'driftKind or grounds, or an empty ground: 422 DRIFT_DETECTION_REJECTED, nothing written. Items of domain cultural or ' +
          'philosophical, and concepts, are marked `requiresHumanReview: true`. A signal with the same objectId, layer and driftKind ' +
          `as an accepted one is recorded with \`accepted: false\` (filter.reason duplicate). ${PROPOSER}`,
        tags,
        body: S.DriftRequest,
        response: { 201: S.DriftResponse, ...errors(422) },
      },
    },
    async (request, reply) => {
      const signal = drift.detect(request.body, proposer(request));
      return reply.code(201).send({ signal, accepted: signal.accepted });
    },
  );

  r.get(
    `${V1}/evolution/semantic-drift`,
    {
      schema: {
        summary: 'List semantic drift signals',
        description: 'Current state of every drift signal, oldest first. Filters: `status` (filtered, open, handed_off), `layer`, `objectId`.',
        tags,
        querystring: S.DriftQuery,
        response: { 200: S.DriftListResponse, ...errors() },
      },
    },
    async (request) => {
      const signals = drift.list(request.query);
      return { total: signals.length, signals };
    },
  );

  r.post(
    `${V1}/evolution/semantic-drift/:id/handoff`,
    {
      schema: {
        summary: 'Hand a drift signal to governance',
        description:
          'Files an issue candidate through the `system` channel (problemKind `semantic-drift:<layer>:<driftKind>`) and marks the ' +
          `signal handed_off; triage stays manual. A filtered signal or one already handed off: 422 DRIFT_HANDOFF_DENIED; unknown id: 404. ${PROPOSER}`,
        tags,
        params: IdParams,
        response: { 201: S.DriftHandoffResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const { record, issueCandidate, note } = drift.handoff(request.params.id, proposer(request));
      return reply.code(201).send({ signal: record, issueCandidate, note });
    },
  );

  /* Graph evolution */

  r.post(
    `${V1}/evolution/graph-evolution/node`,
    {
      schema: {
        summary: 'Create an unverified graph node (human X-Actor)',
        description:
          'Creation is not truth: the node is recorded with status `unverified`, never enters the served graph (GET /v2/graph/nodes ' +
          `does not know it) and never changes served knowledge. \`sameLabelAs\` lists served nodes with the same normalised label. ${HUMAN_ONLY} ` +
          'Code: 422 GRAPH_NODE_DENIED.',
        tags,
        body: S.GraphNodeRequest,
        response: { 201: S.GraphNodeResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send({ node: graph.createNode(request.body, request.headers['x-actor']) }),
  );

  r.post(
    `${V1}/evolution/graph-evolution/correction`,
    {
      schema: {
        summary: 'Propose a graph correction',
        description:
          'Anyone, an AI included, may propose; the proposal is recorded with status `proposed` and `formalGraphChanged: false`. ' +
          `\`unknownIds\` lists referenced ids that are neither served nor created nodes. ${PROPOSER}`,
        tags,
        body: S.GraphCorrectionRequest,
        response: { 200: S.GraphProposalResponse, ...errors() },
      },
    },
    async (request) => ({ proposal: graph.propose({ proposalKind: 'correction', ...request.body }, proposer(request)) }),
  );

  r.post(
    `${V1}/evolution/graph-evolution/expansion`,
    {
      schema: {
        summary: 'Propose a graph expansion (new nodes, hidden relations, missing links)',
        description:
          '`expansionKind` new_node (with a label), hidden_relation or missing_link (with sourceId, targetId, relationType). A proposal ' +
          `only: status \`proposed\`, the formal graph is not changed. ${PROPOSER}`,
        tags,
        body: S.GraphExpansionRequest,
        response: { 200: S.GraphProposalResponse, ...errors() },
      },
    },
    async (request) => ({ proposal: graph.propose({ proposalKind: 'expansion', ...request.body }, proposer(request)) }),
  );

  r.get(
    `${V1}/evolution/graph-evolution/proposals`,
    {
      schema: {
        summary: 'List graph proposals',
        description: 'Current state of every correction and expansion proposal, oldest first. Filters: `status` (proposed, handed_off), `proposalKind`.',
        tags,
        querystring: S.GraphProposalsQuery,
        response: { 200: S.GraphProposalsResponse, ...errors() },
      },
    },
    async (request) => {
      const proposals = graph.list(request.query);
      return { total: proposals.length, proposals };
    },
  );

  r.post(
    `${V1}/evolution/graph-evolution/proposals/:id/handoff`,
    {
      schema: {
        summary: 'Hand a graph proposal to governance',
        description:
          'Files an issue candidate through the `system` channel (problemKind `graph-correction` or `graph-expansion:<kind>`) and ' +
          `marks the proposal handed_off; triage stays manual. Already handed off: 422 GRAPH_PROPOSAL_HANDOFF_DENIED; unknown id: 404. ${PROPOSER}`,
        tags,
        params: IdParams,
        response: { 201: S.GraphHandoffResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const { record, issueCandidate, note } = graph.handoff(request.params.id, proposer(request));
      return reply.code(201).send({ proposal: record, issueCandidate, note });
    },
  );
}
