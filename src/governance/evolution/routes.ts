import type { FastifyInstance } from 'fastify';
import { contractStub, type ContractRoute } from '../../platform/routes.js';
import { get, post, toFastify } from '../contract.js';
import type { GovernanceDeps } from '../deps.js';

const EVOLUTION = 'evolution-governance';

/** Routes of this table that are not built yet: registered with auth and validation, answering 501. */
export const STUBS: ContractRoute[] = [
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
];

export async function evolutionRoutes(app: FastifyInstance, opts: { deps: GovernanceDeps }) {
  void opts;
  for (const route of STUBS) contractStub(app, 'classics', toFastify(route));
}
