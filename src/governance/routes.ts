import type { FastifyInstance } from 'fastify';
import type { GovernanceDeps } from './deps.js';
import { discoveryRoutes } from './discovery/routes.js';
import { evolutionRoutes } from './evolution/routes.js';
import { knowledgeRoutes2 } from './knowledge/routes-2.js';
import { knowledgeRoutes } from './knowledge/routes.js';

/** Evolution governance, knowledge evolution and discovery: the contract's three governance tables. */
export async function governanceRoutes(app: FastifyInstance, opts: { deps: GovernanceDeps }) {
  await app.register(evolutionRoutes, opts);
  await app.register(knowledgeRoutes, opts);
  await app.register(knowledgeRoutes2, opts);
  await app.register(discoveryRoutes, opts);
}
