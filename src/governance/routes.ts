import type { FastifyInstance } from 'fastify';
import { IdParams, OpenObject } from '../classics/schemas.js';
import { contractStub, type ContractRoute } from '../platform/routes.js';

const V1 = '/api/classics/v1';

const post = (url: string, summary: string, tag: string, code?: string): ContractRoute => ({
  method: 'POST',
  url: `${V1}${url}`,
  summary: code ? `${summary} (422 ${code})` : summary,
  tags: [tag],
  body: OpenObject,
  ...(url.includes('{id}') ? { params: IdParams } : {}),
  errors: code ? [404, 422] : [404],
});

const get = (url: string, summary: string, tag: string): ContractRoute => ({
  method: 'GET',
  url: `${V1}${url}`,
  summary,
  tags: [tag],
  querystring: OpenObject,
  ...(url.includes('{id}') ? { params: IdParams } : {}),
  errors: [404],
});

const toFastify = (route: ContractRoute): ContractRoute => ({ ...route, url: route.url.replace(/\{(\w+)\}/g, ':$1') });

const EVOLUTION = 'evolution-governance';
const DISCOVERY = 'discovery';
const KNOWLEDGE = 'knowledge-evolution';

/** The governance, discovery and knowledge-evolution tables of the contract. */
export const GOVERNANCE_ROUTES: ContractRoute[] = [
  post('/evolution/signals', 'Record a signal; deduplicated and clustered into an issue candidate', EVOLUTION),
  post('/evolution/triage', 'Triage an issue candidate (human X-Actor; P0 needs humanReviewed)', EVOLUTION, 'TRIAGE_REJECTED'),
  post('/evolution/candidates', 'Propose an evolution candidate', EVOLUTION, 'CANDIDATE_REJECTED'),
  get('/evolution/candidates', 'List evolution candidates', EVOLUTION),
  post('/evolution/review/decisions', 'Record a review decision (human X-Actor)', EVOLUTION, 'REVIEW_DECISION_REJECTED'),
  post('/evolution/approvals', 'Approve a pinned candidate revision (human X-Actor)', EVOLUTION, 'APPROVAL_REJECTED'),
  get('/evolution/regression/blocked', 'Whether a release is blocked by its critical regression items', EVOLUTION),
  get('/evolution/historical/replay', 'Exact replay of a stored snapshot; a miss stays a miss', EVOLUTION),
  get('/evolution/manifests/{id}/ready', 'Readiness of a release impact manifest', EVOLUTION),
  post('/evolution/products/pins', 'Pin a product to an exact release', EVOLUTION, 'PIN_REJECTED'),
  get('/evolution/drift', 'Products whose pin is behind the latest release', EVOLUTION),

  get('/discovery/sources', 'List discovery sources', DISCOVERY),
  post('/discovery/sources', 'Register a discovery source (untrusted)', DISCOVERY, 'DISCOVERY_SOURCE_REJECTED'),
  post('/discovery/signals', 'Record a discovery signal, deduplicated into a discovery candidate', DISCOVERY, 'DISCOVERY_SIGNAL_REJECTED'),
  get('/discovery/candidates', 'List discovery candidates', DISCOVERY),
  post('/discovery/candidates/{id}/transition', 'Move a discovery candidate along the whitelist', DISCOVERY, 'DISCOVERY_TRANSITION_DENIED'),
  post('/discovery/qualifications', 'Open a source qualification', DISCOVERY, 'QUALIFICATION_REJECTED'),
  post('/discovery/qualifications/{id}/verify', 'Verify a qualification (human only)', DISCOVERY, 'VERIFY_DENIED'),
  post('/discovery/engine/relation', 'Propose a relation (difference and non-equivalence required)', DISCOVERY, 'RELATION_PROPOSAL_REJECTED'),
  post('/discovery/engine/conflict', 'Mark a conflict (never resolved here)', DISCOVERY),
  post('/discovery/engine/gap', 'Annotate a gap (never filled here)', DISCOVERY),
  post('/discovery/handoff', 'Hand a discovery over to governance', DISCOVERY, 'HANDOFF_DENIED'),
  post('/discovery/auto-handoff', 'Hand an accepted discovery candidate over to governance', DISCOVERY, 'AUTO_HANDOFF_DENIED'),
  post('/discovery/trust/injection-check', 'Flag prompt injection in submitted text (never blocks)', DISCOVERY),
  post('/discovery/open-web/search', 'Ingest caller-supplied web results as untrusted candidates', DISCOVERY, 'WEB_RESULT_REJECTED'),
  post('/discovery/external-packs', 'Register an external pack (never formal)', DISCOVERY, 'EXTERNAL_PACK_REJECTED'),
  post('/discovery/agent/verify-tool', 'Whether an AI agent may make a tool call', DISCOVERY),
  get('/discovery/products/matrix', 'Five-product discovery capability matrix', DISCOVERY),
  get('/discovery/observation', 'Discovery observation summary, rebuilt from the JSONL log', DISCOVERY),

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

export async function governanceRoutes(app: FastifyInstance) {
  for (const route of GOVERNANCE_ROUTES) contractStub(app, 'classics', toFastify(route));
}
