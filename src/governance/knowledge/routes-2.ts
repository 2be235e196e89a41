/**
 * Knowledge evolution, second half of the table: conflicts, agents, events, audit, personal
 * evolution and metrics. Thin: validated input -> one domain call -> reply. The rules live in
 * conflicts.ts, agents.ts (with agent-analysis.ts), events.ts, audit-log.ts,
 * personal-evolution.ts and metrics.ts; docs/governance-knowledge-2.md describes them.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../classics/schemas.js';
import { errorResponses } from '../../platform/openapi.js';
import { V1 } from '../contract.js';
import type { GovernanceDeps } from '../deps.js';
import { Agents, runAuthor } from './agents.js';
import { AuditLog } from './audit-log.js';
import { Conflicts } from './conflicts.js';
import { EvolutionEvents } from './events.js';
import { computeMetrics } from './metrics.js';
import { PersonalEvolution } from './personal-evolution.js';
import * as S from './schemas-part2.js';

const tags = ['knowledge-evolution'];
const errors = (...extra: number[]) => errorResponses('classics', [400, 401, 429, 500, ...extra]);

const ACTOR_ANY = 'X-Actor `<kind>:<id>` is required (any kind: human, editorial, ai, system); missing or malformed is the 422 code.';
const HUMAN_ONLY = 'X-Actor must be human or editorial: ai, system, a missing or a malformed header is refused with the 422 code.';

export async function knowledgeRoutes2(app: FastifyInstance, opts: { deps: GovernanceDeps }) {
  const { ledger, issues, lib } = opts.deps;
  const conflicts = new Conflicts(ledger);
  const agents = new Agents(ledger, issues, lib.knowledge, lib.releaseId);
  const events = new EvolutionEvents(ledger);
  const audit = new AuditLog(ledger);
  const personal = new PersonalEvolution(ledger, issues);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /* Conflicts */

  r.post(
    `${V1}/evolution/conflicts`,
    {
      schema: {
        summary: 'Register a knowledge conflict (422 CONFLICT_REGISTER_REJECTED)',
        description:
          `Registers a conflict in state \`open\`. Anyone may register one, an AI included: identifying a conflict decides nothing. ${ACTOR_ANY} ` +
          'topic, objectIds (non-empty) and description are required; a missing or blank one is 422 CONFLICT_REGISTER_REJECTED. ' +
          'States: open -> perspectives_added (a perspective was added) -> resolved; open -> resolved directly is allowed.',
        tags,
        body: S.ConflictRegisterBody,
        response: { 201: S.ConflictResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send({ conflict: conflicts.register(request.body, request.headers['x-actor']) }),
  );

  r.get(
    `${V1}/evolution/conflicts`,
    {
      schema: {
        summary: 'List knowledge conflicts',
        description: 'Current state of every registered conflict, oldest first; optional filter `state` (open, perspectives_added, resolved).',
        tags,
        querystring: S.ConflictListQuery,
        response: { 200: S.ConflictListResponse, ...errors() },
      },
    },
    async (request) => {
      const list = conflicts.list(request.query.state);
      return { total: list.length, conflicts: list };
    },
  );

  r.post(
    `${V1}/evolution/conflicts/:id/perspectives`,
    {
      schema: {
        summary: 'Add a perspective to a conflict (422 PERSPECTIVE_REJECTED)',
        description:
          `Adds a perspective {label, claim, evidence, limitingConditions} and moves the conflict to \`perspectives_added\`. ${ACTOR_ANY} ` +
          'evidence and limitingConditions must each hold at least one non-empty entry; without them, with another field missing, or on a resolved conflict: 422 PERSPECTIVE_REJECTED. ' +
          'Perspectives are numbered p1, p2, ... in the order they were added. 404 for an unknown conflict.',
        tags,
        params: IdParams,
        body: S.PerspectiveBody,
        response: { 201: S.ConflictResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ conflict: conflicts.addPerspective(request.params.id, request.body, request.headers['x-actor']) }),
  );

  r.post(
    `${V1}/evolution/conflicts/:id/resolve`,
    {
      schema: {
        summary: 'Resolve a conflict (human or editorial X-Actor; 422 CONFLICT_RESOLVE_DENIED)',
        description:
          `Resolves a conflict with outcome KEEP_MULTIPLE, PREFER_ONE, MERGE or DISMISS and a rationale; the conflict moves to \`resolved\`. ${HUMAN_ONLY} An AI may identify a conflict but cannot force a conclusion. ` +
          'KEEP_MULTIPLE is a valid outcome (the perspectives stand side by side). PREFER_ONE needs preferredPerspectiveId naming an existing perspective; the field is refused with any other outcome. ' +
          'An unknown outcome, a missing rationale or an already resolved conflict is 422 CONFLICT_RESOLVE_DENIED. 404 for an unknown conflict.',
        tags,
        params: IdParams,
        body: S.ResolveBody,
        response: { 201: S.ConflictResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ conflict: conflicts.resolve(request.params.id, request.body, request.headers['x-actor']) }),
  );

  /* Agents */

  r.post(
    `${V1}/evolution/agents/run`,
    {
      schema: {
        summary: 'Run the read-only multi-role analysis',
        description:
          'Reads the served packs around a concept, claim or passage (objectId) with three deterministic roles: a philologist (passages: locators, verbatim quotes, English renderings, source grades), ' +
          'a philosopher (concept relations: missing targets, non_equivalent pairs, unreciprocated or unguarded non-equivalences) and an editor (claims: trust levels, missing evidence, conflicts, ' +
          'concepts without claims, key passages no claim cites). Every finding is computed from the packs and names the ids it points at. ' +
          'A proposal is drafted only when a finding of severity `issue` exists; otherwise `proposal` is null. `approved` is always false and nothing in the knowledge changes. ' +
          'The run (and its proposal) is recorded on the ledger. X-Actor is optional here (a run decides nothing): without it the run is recorded for the bearer key; a malformed one is 400. ' +
          '404 when objectId is not a concept, claim or passage of the served release.',
        tags,
        body: S.AgentRunBody,
        response: { 200: S.AgentRunResponse, ...errors(404) },
      },
    },
    async (request) => ({ run: agents.run(request.body, runAuthor(request.headers['x-actor'], request.principal?.keyId)) }),
  );

  r.get(
    `${V1}/evolution/agents/proposals`,
    {
      schema: {
        summary: 'List agent proposals',
        description: 'Every agent proposal, oldest first; optional filters objectId and status (proposed, handed_off). approved is always false.',
        tags,
        querystring: S.AgentProposalListQuery,
        response: { 200: S.AgentProposalListResponse, ...errors() },
      },
    },
    async (request) => {
      const list = agents.list(request.query);
      return { total: list.length, proposals: list };
    },
  );

  r.post(
    `${V1}/evolution/agents/proposals/:id/handoff`,
    {
      schema: {
        summary: 'Hand an agent proposal to governance (422 AGENT_PROPOSAL_HANDOFF_DENIED)',
        description:
          `Files the proposal as an issue candidate (channel handoff, deduplicated by object and problem kind \`agent:<first finding kind>\`) and marks it handed_off; triage stays with a human. ${ACTOR_ANY} ` +
          'A proposal is handed off once: again is 422 AGENT_PROPOSAL_HANDOFF_DENIED. 404 for an unknown proposal.',
        tags,
        params: IdParams,
        response: { 201: S.AgentHandoffResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(agents.handoff(request.params.id, request.headers['x-actor'])),
  );

  /* Events */

  r.post(
    `${V1}/evolution/events`,
    {
      schema: {
        summary: 'Emit an evolution event (422 EVENT_EMIT_REJECTED)',
        description:
          `Stores an event {kind, objectId, payload, evidence} and routes it by kind: change -> change-signals, drift -> semantic-drift, conflict -> conflicts, graph -> graph-evolution, agent -> agents, audit -> audit, personal -> personal-evolution. ${ACTOR_ANY} ` +
          'An event is never an approval: it always enters the queue as queueState `queued`, status `open`. Refused with 422 EVENT_EMIT_REJECTED without evidence (at least one non-empty entry), without kind or objectId, or for an unknown kind. ' +
          'An open event with the same kind, objectId and payload is not queued twice: it is returned with accepted: false and a reason, and nothing is written.',
        tags,
        body: S.EventBody,
        response: { 201: S.EventEmitResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send(events.emit(request.body, request.headers['x-actor'])),
  );

  r.get(
    `${V1}/evolution/events`,
    {
      schema: {
        summary: 'List evolution events',
        description: 'Every event, oldest first; filters status (open, closed), queueState (queued, in_review, deferred, approved, rejected) and kind.',
        tags,
        querystring: S.EventListQuery,
        response: { 200: S.EventListResponse, ...errors() },
      },
    },
    async (request) => {
      const list = events.list(request.query);
      return { total: list.length, events: list };
    },
  );

  r.post(
    `${V1}/evolution/events/:id/transition`,
    {
      schema: {
        summary: 'Move an evolution event through its queue (422 EVENT_TRANSITION_DENIED)',
        description:
          'Moves: queued -> in_review | deferred | rejected; in_review -> approved | rejected | deferred | queued; deferred -> queued | rejected; approved and rejected are final. ' +
          'status is open while queued, in_review or deferred, closed once approved or rejected. Moves between queued, in_review and deferred need a well-formed X-Actor of any kind. ' +
          `approved and rejected are decisions: ${HUMAN_ONLY} approved also needs approvalRef: the record id of an approval (ledger kind approval) whose targetId is this event or its objectId (or whose candidateId is the objectId). ` +
          'A move off the whitelist, an unknown target state, a missing or unknown approvalRef, or a refused actor is 422 EVENT_TRANSITION_DENIED. 404 for an unknown event.',
        tags,
        params: IdParams,
        body: S.EventTransitionBody,
        response: { 200: S.EventResponse, ...errors(404, 422) },
      },
    },
    async (request) => ({ event: events.transition(request.params.id, request.body, request.headers['x-actor']) }),
  );

  /* Audit */

  r.post(
    `${V1}/evolution/audit`,
    {
      schema: {
        summary: 'Append an audit record (422 AUDIT_REJECTED)',
        description:
          `Appends a record {operation, decision, evidence, version, logType, objectId?}. ${ACTOR_ANY} Every field but objectId is required and evidence needs at least one non-empty entry; otherwise 422 AUDIT_REJECTED. ` +
          'The log is append-only: no endpoint changes or removes a record, and the ledger refuses UPDATE and DELETE.',
        tags,
        body: S.AuditBody,
        response: { 201: S.AuditResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send({ record: audit.append(request.body, request.headers['x-actor']) }),
  );

  r.get(
    `${V1}/evolution/audit`,
    {
      schema: {
        summary: 'List audit records',
        description: 'Every audit record, oldest first; filters logType and operation (exact match).',
        tags,
        querystring: S.AuditListQuery,
        response: { 200: S.AuditListResponse, ...errors() },
      },
    },
    async (request) => {
      const list = audit.list(request.query);
      return { total: list.length, records: list };
    },
  );

  /* Personal evolution */

  r.post(
    `${V1}/evolution/personal-evolution`,
    {
      schema: {
        summary: 'Record a personal evolution event (422 PERSONAL_EVENT_REJECTED)',
        description:
          `Records {owner, permission, sharingScope, kind?, summary?, evidence?}. ${ACTOR_ANY} permission is store | analyze | share; sharingScope is private | product | aggregate. ` +
          'privacyStatus is derived: private when sharingScope is private or permission is store; shared when permission is share; restricted otherwise. ' +
          'Refused with 422 PERSONAL_EVENT_REJECTED, and never stored, without owner, permission or sharingScope, with a value outside those sets, or when the body carries a raw transcript: ' +
          'a field named transcript, rawTranscript, messages, conversation, chatHistory, chatLog or dialogue (or any name containing "transcript") at any depth, or any string over 2000 characters.',
        tags,
        body: S.PersonalEventBody,
        response: { 201: S.PersonalEventResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send({ event: personal.record(request.body, request.headers['x-actor']) }),
  );

  r.get(
    `${V1}/evolution/personal-evolution`,
    {
      schema: {
        summary: 'List personal evolution events',
        description: 'Every personal evolution event, oldest first; filters owner and privacyStatus (private, restricted, shared).',
        tags,
        querystring: S.PersonalEventListQuery,
        response: { 200: S.PersonalEventListResponse, ...errors() },
      },
    },
    async (request) => {
      const list = personal.list(request.query);
      return { total: list.length, events: list };
    },
  );

  r.post(
    `${V1}/evolution/personal-evolution/behavior-change`,
    {
      schema: {
        summary: 'Record a behavior change signal (422 BEHAVIOR_CHANGE_REJECTED)',
        description:
          `Records a behavior signal {owner, changeType, description, evidence} in status recorded. ${ACTOR_ANY} changeType is interest | demand | learning_pattern. ` +
          'Without evidence (at least one non-empty entry), with another field missing, another changeType, or a raw transcript in the body (as for personal events): 422 BEHAVIOR_CHANGE_REJECTED, nothing stored.',
        tags,
        body: S.BehaviorChangeBody,
        response: { 201: S.BehaviorSignalResponse, ...errors(422) },
      },
    },
    async (request, reply) => reply.code(201).send({ signal: personal.behaviorChange(request.body, request.headers['x-actor']) }),
  );

  r.post(
    `${V1}/evolution/personal-evolution/behavior-signals/:id/handoff`,
    {
      schema: {
        summary: 'Hand a behavior signal to governance (422 BEHAVIOR_HANDOFF_DENIED)',
        description:
          `Files the signal as an issue candidate (channel handoff, object \`personal-evolution:<changeType>\`, problem kind \`behavior:<changeType>\`) and marks it handed_off; triage stays with a human. ${ACTOR_ANY} ` +
          "The issue candidate carries the description, evidence and the signal id, never the owner. A signal is handed off once: again is 422 BEHAVIOR_HANDOFF_DENIED. 404 for an unknown signal.",
        tags,
        params: IdParams,
        response: { 201: S.BehaviorHandoffResponse, ...errors(404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(personal.handoff(request.params.id, request.headers['x-actor'])),
  );

  /* Metrics */

  r.get(
    `${V1}/evolution/metrics`,
    {
      schema: {
        summary: 'Evolution metrics computed from the ledger',
        description:
          'Computed on each call from the ledger; each metric gives value = numerator / denominator (null when the denominator is 0) and its formula. ' +
          'freshness: governance kinds whose newest record is at most 30 days old / kinds with any record (perKind lists the age of the newest record of each). ' +
          'acceptance: evolution candidates named by an approval (candidateId or targetId) / evolution candidates. ' +
          'conflictResolution: resolved conflicts / registered conflicts (byOutcome counts the outcomes). ' +
          'trustStability: claims of the served release whose trust level no approval changed (an approval, or the candidate it approves, naming the claim and changing its trust level: a trust_level key, or change.field = trust_level) / claims of the release. ' +
          'eventApproval: approved events / events approved or rejected. A score is not truth.',
        tags,
        response: { 200: S.MetricsResponse, ...errors() },
      },
    },
    async () => computeMetrics(ledger, lib.knowledge, lib.releaseId),
  );
}
