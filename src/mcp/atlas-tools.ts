import * as A from '../atlas/schemas.js';
import type { Atlas, AtlasStore } from '../atlas/store.js';
import { ServiceError } from '../platform/errors.js';
import { defineTool, type ToolDef } from './tool.js';

/** The pack a call works on, read once (as the REST routes do); none loaded is 503 NOT_READY. */
function served(store: AtlasStore): Atlas {
  const atlas = store.current;
  if (!atlas) throw new ServiceError(503, 'NOT_READY', `no atlas pack is loaded: ${store.readiness().reason ?? 'unknown reason'}`);
  return atlas;
}

/**
 * GET /lookup's resolution: a slug names an entity; an id names an entity, a relationship or an
 * evidence record, in that order. The REST handler does this inline (src/atlas/routes.ts); it is
 * repeated here because that module does not export it.
 */
function lookup(atlas: Atlas, query: { id?: string; slug?: string }) {
  const { pack } = atlas;
  if (query.slug !== undefined) {
    const entity = pack.entitiesBySlug.get(query.slug);
    if (!entity) throw new ServiceError(404, 'NOT_FOUND', `no entity with slug "${query.slug}"`);
    return { kind: 'entity' as const, id: entity.id, data: entity };
  }
  const id = query.id!;
  const entity = pack.entities.get(id);
  if (entity) return { kind: 'entity' as const, id, data: entity };
  const relationship = pack.relationships.get(id);
  if (relationship) return { kind: 'relationship' as const, id, data: relationship };
  const evidence = pack.evidence.get(id);
  if (evidence) return { kind: 'evidence' as const, id, data: evidence };
  throw new ServiceError(404, 'NOT_FOUND', `no entity, relationship or evidence with id "${id}"`);
}

export const ATLAS_TOOLS: ToolDef[] = [
  defineTool({
    name: 'atlas_search',
    title: 'Search the Design Atlas',
    description:
      'Full-text search of the design-history atlas over names, aliases, slugs, ids and descriptions (diacritics, case and traditional/simplified Han ignored), optionally limited to entity kinds. ' +
      'Same as POST /api/atlas/v1/search; counted as atlas usage under the key id.',
    input: A.AtlasSearchRequest,
    output: A.AtlasSearchResponse,
    style: 'atlas',
    meter: 'search',
    readOnly: true,
    run: (args, _caller, { atlas }) => {
      const hits = served(atlas).search.search(args);
      return { q: args.q, count: hits.length, hits };
    },
  }),
  defineTool({
    name: 'atlas_lookup',
    title: 'Look up an atlas record',
    description:
      'Exactly one of `id` (an entity, relationship or evidence id, e.g. person.walter-gropius) or `slug` (an entity slug). Same as GET /api/atlas/v1/lookup; counted as atlas usage under the key id.',
    input: A.AtlasLookupQuery,
    output: A.AtlasLookupResult,
    style: 'atlas',
    meter: 'lookup',
    readOnly: true,
    run: (args, _caller, { atlas }) => lookup(served(atlas), args),
  }),
  defineTool({
    name: 'atlas_graph',
    title: 'Atlas neighbourhood graph',
    description:
      'Breadth-first neighbourhood of a root entity over released relationships (maxDepth 1-5, maxNodes 1-200); `truncated` says whether a bound cut it. ' +
      'Same as POST /api/atlas/v1/graph; counted as atlas usage under the key id.',
    input: A.AtlasGraphRequest,
    output: A.AtlasGraphResponse,
    style: 'atlas',
    meter: 'graph',
    readOnly: true,
    run: (args, _caller, { atlas }) => {
      const graph = served(atlas).graph.walk(args);
      if (!graph) throw new ServiceError(404, 'NOT_FOUND', `no entity with id "${args.rootId}"`);
      return graph;
    },
  }),
];
