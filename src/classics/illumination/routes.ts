import type { FastifyInstance } from 'fastify';
import type { IssueCandidates } from '../../governance/issue-candidates.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { contractStub, type ContractRoute } from '../../platform/routes.js';
import type { Library } from '../library.js';
import * as S from '../schemas.js';

const V1 = '/api/classics/v1';

/** Illumination and insights: not built yet. */
export const STUBS: ContractRoute[] = [
  { method: 'POST', url: `${V1}/illuminate`, summary: 'Four-tradition illumination of a question', tags: ['illumination'], body: S.IlluminateRequest },
  { method: 'POST', url: `${V1}/insights`, summary: 'Structured insights and actions for a situation', tags: ['insights'], body: S.InsightRequest },
];

export async function illuminationRoutes(app: FastifyInstance, opts: { lib: Library; ledger: LedgerStore; issues: IssueCandidates }) {
  void opts;
  for (const route of STUBS) contractStub(app, 'classics', route);
}
