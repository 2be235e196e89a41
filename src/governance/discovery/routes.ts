import type { FastifyInstance } from 'fastify';
import { contractStub, type ContractRoute } from '../../platform/routes.js';
import { get, post, toFastify } from '../contract.js';
import type { GovernanceDeps } from '../deps.js';

const DISCOVERY = 'discovery';

/** Routes of this table that are not built yet: registered with auth and validation, answering 501. */
export const STUBS: ContractRoute[] = [
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
];

export async function discoveryRoutes(app: FastifyInstance, opts: { deps: GovernanceDeps }) {
  void opts;
  for (const route of STUBS) contractStub(app, 'classics', toFastify(route));
}
