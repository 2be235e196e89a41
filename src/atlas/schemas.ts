import { z } from 'zod';
import { isCalendarDay } from './usage.js';

export const AtlasEntityKind = z.enum(['person', 'work', 'place', 'organization', 'movement', 'concept', 'source']);

// ---- requests ---------------------------------------------------------------------------------

export const AtlasSearchRequest = z
  .object({
    q: z.string().min(1).max(200).describe('Query text: names, aliases, slugs, ids or words of a description; diacritics and case are ignored'),
    scope: z.array(AtlasEntityKind).max(7).optional().describe('Only these kinds'),
    limit: z.number().int().min(1).max(100).default(20),
  })
  .meta({ example: { q: 'bauhaus', scope: ['organization', 'movement'], limit: 10 } });

export const AtlasGraphRequest = z
  .object({
    rootId: z.string().min(1).max(200).describe('Entity id of the root'),
    maxDepth: z.number().int().min(1).max(5).default(2),
    maxNodes: z.number().int().min(1).max(200).default(40),
  })
  .meta({ example: { rootId: 'person.walter-gropius', maxDepth: 2, maxNodes: 40 } });

export const AtlasLookupQuery = z
  .object({
    id: z.string().min(1).max(200).optional().describe('Id of an entity, relationship or evidence record'),
    slug: z.string().min(1).max(200).optional().describe('Slug of an entity'),
  })
  .refine((q) => (q.id === undefined) !== (q.slug === undefined), { message: 'give exactly one of id or slug' });

/** The body is optional: no body (or an empty object) reloads the pack being served. */
export const AtlasReloadRequest = z.preprocess(
  (body) => body ?? {},
  z
    .object({ packId: z.string().regex(/^[a-z0-9][a-z0-9-]*$/).max(100).optional().describe('Pack to load from PACKS_DIR/atlas/<packId>; default the pack being served') })
    .meta({ example: { packId: 'design-history' } }),
);

const day = z.string().refine(isCalendarDay, 'expected a calendar day YYYY-MM-DD');
export const AtlasUsageQuery = z
  .object({
    from: day.optional().describe('First UTC day, inclusive; default the first day of the month of `to`, or of the current month'),
    to: day.optional().describe('Last UTC day, inclusive; default the last day of the month of `from`, or of the current month'),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export const AtlasBillingQuery = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM').optional().describe('UTC calendar month; default the current month'),
});

// ---- responses --------------------------------------------------------------------------------

const dateTime = z.iso.datetime({ offset: true });

export const AtlasReadyResponse = z
  .object({
    ok: z.literal(true),
    service: z.string(),
    version: z.string().describe('Version of the pack being served'),
    packId: z.string().optional(),
    packName: z.string().optional(),
    channel: z.string().optional(),
    releasedAt: dateTime.optional(),
  })
  .meta({
    description: 'Ready: the pack being served',
    example: { ok: true, service: 'atlas', version: '1.0.0', packId: 'design-history', packName: 'Design History', channel: 'stable', releasedAt: '2025-01-15T00:00:00Z' },
  });

export const AtlasSearchHit = z.object({
  id: z.string(),
  kind: AtlasEntityKind,
  displayName: z.string(),
  slug: z.string(),
  score: z.number().min(0).max(1).describe('1 for an exact id, slug, name or alias match; other hits below 0.99, monotonic in the engine score'),
  matchedField: z.enum(['id', 'slug', 'displayName', 'aliases', 'description']).optional(),
});

export const AtlasSearchResponse = z
  .object({
    q: z.string(),
    count: z.number().int().describe('Number of hits returned'),
    hits: z.array(AtlasSearchHit),
  })
  .meta({
    description: 'Hits, best first: score desc, then displayName, then id',
    example: {
      q: 'bauhaus',
      count: 2,
      hits: [
        { id: 'organization.bauhaus', kind: 'organization', displayName: 'Bauhaus', slug: 'bauhaus', score: 1, matchedField: 'displayName' },
        { id: 'person.walter-gropius', kind: 'person', displayName: 'Walter Gropius', slug: 'walter-gropius', score: 0.41, matchedField: 'description' },
      ],
    },
  });

export const AtlasGraphNode = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.string(),
  group: z.string(),
  description: z.string().optional(),
});

export const AtlasGraphEdge = z.object({
  id: z.string(),
  source: z.string(),
  target: z.string(),
  label: z.string(),
  type: z.string(),
  confidence: z.number().min(0).max(1),
});

export const AtlasGraphResponse = z
  .object({
    rootId: z.string(),
    nodes: z.array(AtlasGraphNode),
    edges: z.array(AtlasGraphEdge).describe('Only edges whose two ends are both returned nodes'),
    truncated: z.boolean().describe('True exactly when maxDepth or maxNodes cut the neighbourhood'),
  })
  .meta({
    description: 'The neighbourhood of the root, nodes in breadth-first order, edges by id',
    example: {
      rootId: 'person.walter-gropius',
      nodes: [
        { id: 'person.walter-gropius', label: 'Walter Gropius', kind: 'person', group: 'person', description: 'German architect, founder of the Bauhaus.' },
        { id: 'organization.bauhaus', label: 'Bauhaus', kind: 'organization', group: 'organization', description: 'German art school, 1919-1933.' },
      ],
      edges: [{ id: 'rel.gropius-founded-bauhaus', source: 'person.walter-gropius', target: 'organization.bauhaus', label: 'founded', type: 'founded', confidence: 0.98 }],
      truncated: false,
    },
  });

export const AtlasLookupResult = z
  .object({
    kind: z.enum(['entity', 'relationship', 'evidence']),
    id: z.string(),
    data: z.record(z.string(), z.unknown()).describe('The released record'),
  })
  .meta({
    description: 'The record the id or slug names',
    example: {
      kind: 'entity',
      id: 'person.walter-gropius',
      data: { id: 'person.walter-gropius', kind: 'person', slug: 'walter-gropius', displayName: 'Walter Gropius', aliases: ['Gropius'], description: 'German architect.', born: 1883, died: 1969, visibility: 'public', reviewState: 'reviewed' },
    },
  });

const PackVersion = z.object({ version: z.string(), channel: z.string(), packId: z.string(), releasedAt: dateTime });
const FullPackVersion = PackVersion.extend({ packName: z.string() });

export const AtlasStatsResponse = z
  .object({
    version: PackVersion,
    manifest: z.object({
      counts: z.record(z.string(), z.number().int()).describe('Released records: entities per kind, `entities`, `relationships`, `evidence`'),
      releasedEntityIds: z.array(z.string()),
      filter: z.object({ visibility: z.array(z.string()) }),
      governance: z.object({
        totalEntities: z.number().int(),
        published: z.number().int(),
        withSources: z.number().int(),
        reviewed: z.number().int(),
        aiCandidateRelationships: z.number().int(),
        relationshipsSkippedMissingEndpoint: z.number().int(),
      }),
    }),
  })
  .meta({
    description: 'Pack version and the manifest, every number computed from the released records',
    example: {
      version: { version: '1.0.0', channel: 'stable', packId: 'design-history', releasedAt: '2025-01-15T00:00:00Z' },
      manifest: {
        counts: { person: 1, work: 0, place: 0, organization: 1, movement: 0, concept: 0, source: 0, entities: 2, relationships: 1, evidence: 0 },
        releasedEntityIds: ['organization.bauhaus', 'person.walter-gropius'],
        filter: { visibility: ['public'] },
        governance: { totalEntities: 3, published: 2, withSources: 0, reviewed: 2, aiCandidateRelationships: 0, relationshipsSkippedMissingEndpoint: 0 },
      },
    },
  });

export const AtlasReloadResponse = z
  .object({
    previous: FullPackVersion.nullable().describe('The pack served before, null if none was'),
    current: FullPackVersion,
    durationMs: z.number().int(),
  })
  .meta({
    description: 'The new pack is being served',
    example: {
      previous: { packId: 'design-history', packName: 'Design History', version: '1.0.0', channel: 'stable', releasedAt: '2025-01-15T00:00:00Z' },
      current: { packId: 'design-history', packName: 'Design History', version: '1.1.0', channel: 'stable', releasedAt: '2025-02-01T00:00:00Z' },
      durationMs: 42,
    },
  });

export const AtlasUsageResponse = z
  .object({
    from: z.string(),
    to: z.string(),
    rows: z.array(z.object({ day: z.string(), keyId: z.string(), endpoint: z.string(), requests: z.number().int() })),
    totals: z.object({
      requests: z.number().int(),
      byKey: z.record(z.string(), z.number().int()),
      byEndpoint: z.record(z.string(), z.number().int()),
    }),
  })
  .meta({
    description: 'Requests per UTC day, key id and endpoint',
    example: {
      from: '2025-03-01',
      to: '2025-03-31',
      rows: [
        { day: '2025-03-02', keyId: 'cfg-3f2a9b0c1d4e', endpoint: 'search', requests: 120 },
        { day: '2025-03-02', keyId: 'cfg-3f2a9b0c1d4e', endpoint: 'graph', requests: 8 },
      ],
      totals: { requests: 128, byKey: { 'cfg-3f2a9b0c1d4e': 128 }, byEndpoint: { search: 120, graph: 8 } },
    },
  });

const BillLine = z.object({
  class: z.string(),
  requests: z.number().int(),
  freeRequests: z.number().int(),
  billableRequests: z.number().int(),
  pricePer1000: z.number(),
  amount: z.number(),
});

export const AtlasBillingResponse = z
  .object({
    month: z.string(),
    currency: z.string(),
    freeRequestsPerMonth: z.number().int(),
    keys: z.array(
      z.object({
        keyId: z.string(),
        requests: z.number().int(),
        freeAllowance: z.number().int(),
        freeRequestsUsed: z.number().int(),
        billableRequests: z.number().int(),
        lines: z.array(BillLine),
        total: z.number(),
      }),
    ),
    totals: z.object({ requests: z.number().int(), billableRequests: z.number().int(), amount: z.number() }),
  })
  .meta({
    description: 'The bill for one month, per key and price class',
    example: {
      month: '2025-03',
      currency: 'EUR',
      freeRequestsPerMonth: 10000,
      keys: [
        {
          keyId: 'cfg-3f2a9b0c1d4e',
          requests: 25000,
          freeAllowance: 10000,
          freeRequestsUsed: 10000,
          billableRequests: 15000,
          lines: [
            { class: 'search', requests: 20000, freeRequests: 5000, billableRequests: 15000, pricePer1000: 0.5, amount: 7.5 },
            { class: 'graph', requests: 5000, freeRequests: 5000, billableRequests: 0, pricePer1000: 1, amount: 0 },
          ],
          total: 7.5,
        },
      ],
      totals: { requests: 25000, billableRequests: 15000, amount: 7.5 },
    },
  });
