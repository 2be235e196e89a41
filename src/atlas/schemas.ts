import { z } from 'zod';

export const AtlasEntityKind = z.enum(['person', 'work', 'place', 'organization', 'movement', 'concept', 'source']);

export const AtlasSearchRequest = z.object({
  q: z.string().min(1).max(200),
  scope: z.array(AtlasEntityKind).max(7).optional(),
  limit: z.number().int().min(1).max(100).default(20),
});

export const AtlasGraphRequest = z.object({
  rootId: z.string().min(1).max(200),
  maxDepth: z.number().int().min(1).max(5).default(2),
  maxNodes: z.number().int().min(1).max(200).default(40),
});

export const AtlasLookupQuery = z.object({
  id: z.string().min(1).max(200).optional(),
  slug: z.string().min(1).max(200).optional(),
});

export const AtlasReloadRequest = z.object({ packId: z.string().regex(/^[a-z0-9][a-z0-9-]*$/).max(100).optional() }).optional();

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
export const AtlasUsageQuery = z.object({ from: day.optional(), to: day.optional() });
export const AtlasBillingQuery = z.object({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM').optional() });

export const AtlasReadyResponse = z.object({
  ok: z.literal(true),
  service: z.string(),
  version: z.string(),
  packId: z.string().optional(),
  packName: z.string().optional(),
  channel: z.string().optional(),
  releasedAt: z.string().optional(),
});
