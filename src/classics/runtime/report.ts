import type { z } from 'zod';
import { ServiceError } from '../../platform/errors.js';
import type { LedgerStore } from '../../platform/ledger.js';
import { buildInsights } from '../illumination/insights.js';
import { InsightBundleSchema } from '../illumination/schemas.js';
import type { ReportSupportResult } from './schemas.js';
import type { View } from './views.js';

type ReportPayload = Omit<ReportSupportResult, 'runtimeMode' | 'productId' | 'releaseId' | 'locale' | 'knowledgePackIds' | 'abstention'>;

/**
 * report_support: the query is the situation of an insights request with synthesize=true
 * (scenario `runtime.report_support`, privacy mode private) over the classic packs in scope; the
 * bundle's fields are the result, plus the citations of its insights in one list.
 */
export function reportSupport(view: View, ledger: LedgerStore, input: { query: string; productId: string; knowledgePackIds: string[] }, requestId: string): ReportPayload {
  const classics = new Set(view.lib.knowledge.packs.filter((p) => p.manifest.kind === 'classic').map((p) => p.manifest.id));
  const packIds = input.knowledgePackIds.filter((id) => classics.has(id));
  if (!packIds.length) throw new ServiceError(400, 'INVALID_REQUEST', 'body.knowledgePackIds: report_support needs at least one classic pack in scope');
  const bundle: z.infer<typeof InsightBundleSchema> = InsightBundleSchema.parse(
    buildInsights(
      { productId: input.productId, scenario: 'runtime.report_support', privacyMode: 'private', userText: input.query, knowledgePackIds: packIds, synthesize: true },
      view.lib,
      { requestId, ledger },
    ),
  );
  const seen = new Set<string>();
  const citations = bundle.insights.flatMap((i) => i.citations).filter((c) => !seen.has(c.citation_id) && seen.add(c.citation_id));
  return { query: input.query, ...bundle, citations };
}
