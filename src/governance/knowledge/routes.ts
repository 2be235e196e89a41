import type { FastifyInstance } from 'fastify';
import { contractStub, type ContractRoute } from '../../platform/routes.js';
import { get, post, toFastify } from '../contract.js';
import type { GovernanceDeps } from '../deps.js';

const KNOWLEDGE = 'knowledge-evolution';

/** Routes of this table that are not built yet: registered with auth and validation, answering 501. */
export const STUBS: ContractRoute[] = [
  post('/evolution/change-signals', 'Record a change signal (false-change filter)', KNOWLEDGE, 'CHANGE_DETECTION_REJECTED'),
  get('/evolution/change-signals', 'List change signals', KNOWLEDGE),
  post('/evolution/change-signals/{id}/handoff', 'Hand a change signal to governance', KNOWLEDGE, 'CHANGE_HANDOFF_DENIED'),
  post('/evolution/state', 'Create a knowledge state (v1)', KNOWLEDGE, 'STATE_REJECTED'),
  post('/evolution/state/{id}/evolve', 'Evolve a knowledge state (human X-Actor and approvalRef)', KNOWLEDGE, 'STATE_EVOLVE_DENIED'),
  post('/evolution/state/{id}/rollback', 'Roll a knowledge state back (human X-Actor)', KNOWLEDGE, 'STATE_ROLLBACK_DENIED'),
  get('/evolution/state/{id}/history', 'Immutable history of a knowledge state', KNOWLEDGE),
  get('/evolution/state/compare', 'Compare two versions of a knowledge state', KNOWLEDGE),
  post('/evolution/semantic-drift', 'Record a semantic drift signal', KNOWLEDGE, 'DRIFT_DETECTION_REJECTED'),
  get('/evolution/semantic-drift', 'List semantic drift signals', KNOWLEDGE),
  post('/evolution/semantic-drift/{id}/handoff', 'Hand a drift signal to governance', KNOWLEDGE, 'DRIFT_HANDOFF_DENIED'),
  post('/evolution/graph-evolution/node', 'Create an unverified graph node (human X-Actor)', KNOWLEDGE, 'GRAPH_NODE_DENIED'),
  post('/evolution/graph-evolution/correction', 'Propose a graph correction', KNOWLEDGE),
  post('/evolution/graph-evolution/expansion', 'Propose a graph expansion', KNOWLEDGE),
  get('/evolution/graph-evolution/proposals', 'List graph proposals', KNOWLEDGE),
  post('/evolution/graph-evolution/proposals/{id}/handoff', 'Hand a graph proposal to governance', KNOWLEDGE, 'GRAPH_PROPOSAL_HANDOFF_DENIED'),
];

export async function knowledgeRoutes(app: FastifyInstance, opts: { deps: GovernanceDeps }) {
  void opts;
  for (const route of STUBS) contractStub(app, 'classics', toFastify(route));
}
