import type { FastifyInstance } from 'fastify';
import { contractStub, type ContractRoute } from '../../platform/routes.js';
import { get, post, toFastify } from '../contract.js';
import type { GovernanceDeps } from '../deps.js';

const KNOWLEDGE = 'knowledge-evolution';

/** Routes of this table that are not built yet: registered with auth and validation, answering 501. */
export const STUBS: ContractRoute[] = [
  post('/evolution/conflicts', 'Register a knowledge conflict', KNOWLEDGE, 'CONFLICT_REGISTER_REJECTED'),
  get('/evolution/conflicts', 'List knowledge conflicts', KNOWLEDGE),
  post('/evolution/conflicts/{id}/perspectives', 'Add a perspective to a conflict', KNOWLEDGE, 'PERSPECTIVE_REJECTED'),
  post('/evolution/conflicts/{id}/resolve', 'Resolve a conflict (human or editorial X-Actor)', KNOWLEDGE, 'CONFLICT_RESOLVE_DENIED'),
  post('/evolution/agents/run', 'Run the read-only multi-role analysis', KNOWLEDGE),
  get('/evolution/agents/proposals', 'List agent proposals', KNOWLEDGE),
  post('/evolution/agents/proposals/{id}/handoff', 'Hand an agent proposal to governance', KNOWLEDGE, 'AGENT_PROPOSAL_HANDOFF_DENIED'),
  post('/evolution/events', 'Emit an evolution event', KNOWLEDGE, 'EVENT_EMIT_REJECTED'),
  get('/evolution/events', 'List evolution events', KNOWLEDGE),
  post('/evolution/events/{id}/transition', 'Move an evolution event through its queue', KNOWLEDGE, 'EVENT_TRANSITION_DENIED'),
  post('/evolution/audit', 'Append an audit record', KNOWLEDGE, 'AUDIT_REJECTED'),
  get('/evolution/audit', 'List audit records', KNOWLEDGE),
  post('/evolution/personal-evolution', 'Record a personal evolution event', KNOWLEDGE, 'PERSONAL_EVENT_REJECTED'),
  get('/evolution/personal-evolution', 'List personal evolution events', KNOWLEDGE),
  post('/evolution/personal-evolution/behavior-change', 'Record a behavior change signal', KNOWLEDGE, 'BEHAVIOR_CHANGE_REJECTED'),
  post('/evolution/personal-evolution/behavior-signals/{id}/handoff', 'Hand a behavior signal to governance', KNOWLEDGE, 'BEHAVIOR_HANDOFF_DENIED'),
  get('/evolution/metrics', 'Evolution metrics computed from the ledger', KNOWLEDGE),
];

export async function knowledgeRoutes2(app: FastifyInstance, opts: { deps: GovernanceDeps }) {
  void opts;
  for (const route of STUBS) contractStub(app, 'classics', toFastify(route));
}
