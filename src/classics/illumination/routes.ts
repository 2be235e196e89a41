import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IssueCandidates } from '../../governance/issue-candidates.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { errorResponses } from '../../platform/openapi.js';
import type { Library } from '../library.js';
import * as S from '../schemas.js';
import { answerIlluminate } from './illuminate.js';
import { buildInsightsGrouped } from './insights.js';
import { IlluminateAnswerSchema, InsightBundleSchema } from './schemas.js';

const V1 = '/api/classics/v1';
const errors = errorResponses('classics', [400, 401, 429, 500]);

export async function illuminationRoutes(app: FastifyInstance, opts: { lib: Library; ledger: LedgerStore; issues: IssueCandidates }) {
  const { lib, ledger } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    `${V1}/illuminate`,
    {
      schema: {
        summary: 'Four-tradition illumination of a question',
        description:
          'Context (surface question, tension, C1-C3), the focused question, four perspectives (道 儒 佛 心, 50-100 characters each, each resting on its own classic or saying plainly it has no evidence, then T4), contrast, one insight with a reflective question and an optional small action, the validated claims and citations and the full evidence passages. ' +
          'A Gate-blocked or out-of-scope input gets 200 with `abstention` and no perspectives.',
        tags: ['illumination'],
        body: S.IlluminateRequest,
        response: { 200: IlluminateAnswerSchema, ...errors },
      },
    },
    async (request) => answerIlluminate(request.body, lib),
  );

  r.post(
    `${V1}/insights`,
    {
      schema: {
        summary: 'Structured insights and actions for a situation',
        description:
          'userText (or contextSummary when userText is empty) in; one insight per tradition at most (default classics: Daodejing, Analects, Yijing, Diamond Sutra; knowledgePackIds restricts them, else the product projection routes), small actions that are never medical, legal or financial instructions, and the bundle stored as a snapshot (outputSnapshotId). ' +
          'privacyMode private: the user text is never stored or logged, only its sha256. userDisabledClassics: classicModuleUsed false, noUseReason USER_DISABLED; the Gate: noUseReason GATE_BLOCKED. synthesize: true adds `synthesized` and dimensionMaterialsCount.',
        tags: ['insights'],
        body: S.InsightRequest,
        response: { 200: InsightBundleSchema, ...errors },
      },
    },
    async (request) => (await buildInsightsGrouped(request.body, lib, { requestId: `in_${randomUUID()}`, ledger })) as never,
  );
}
