/**
 * Neighbourhood graph: breadth-first walk from a root over released relationships, both
 * directions, bounded by depth and node count.
 *
 * truncated is true exactly when a bound cut the result: a node at the depth bound still had an
 * unvisited neighbour, or the node bound was reached while an unvisited neighbour was still
 * waiting. When the whole component fits inside both bounds it is false.
 *
 * Order is deterministic: nodes in BFS order with each node's neighbours taken in
 * (neighbour id, relationship id) order; edges sorted by id.
 */
import type { Entity, EntityKind, Relationship } from './pack.js';
import { runAsync, runSync, ticker, type Steps } from './steps.js';

export interface GraphNode {
  id: string;
  label: string;
  kind: EntityKind;
  group: EntityKind;
  description: string;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  label: string;
  type: string;
  confidence: number;
}

export interface GraphResult {
  rootId: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  truncated: boolean;
}

export interface GraphQuery {
  rootId: string;
  maxDepth: number;
  maxNodes: number;
}

/** The other end of a relationship seen from one of its ends (a self-loop's is the node itself). */
const across = (r: Relationship, from: string) => (r.source === from ? r.target : r.source);

const byNeighbourThenId = (from: string) => (a: Relationship, b: Relationship) => {
  const x = across(a, from);
  const y = across(b, from);
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/**
 * Both directions of every relationship: each node's relationships in (neighbour id,
 * relationship id) order. Lists hold the relationships themselves (the neighbour is the other
 * end), which at 100k entities is 600k small objects fewer than holding (neighbour, relationship)
 * pairs.
 */
function* adjacencySteps(relationships: Iterable<Relationship>): Steps<Map<string, Relationship[]>> {
  const tick = ticker(512);
  const adjacency = new Map<string, Relationship[]>();
  const link = (from: string, relationship: Relationship) => {
    const list = adjacency.get(from);
    if (list) list.push(relationship);
    else adjacency.set(from, [relationship]);
  };
  for (const r of relationships) {
    link(r.source, r);
    if (r.source !== r.target) link(r.target, r);
    if (tick()) yield;
  }
  for (const [from, list] of adjacency) {
    list.sort(byNeighbourThenId(from));
    if (tick()) yield;
  }
  return adjacency;
}

export class GraphIndex {
  private constructor(
    private readonly entities: ReadonlyMap<string, Entity>,
    /** Each entity's relationships in (neighbour id, relationship id) order; callers must not change it. */
    readonly adjacency: ReadonlyMap<string, Relationship[]>,
  ) {}

  /** Opens adjacency lists already in order (a compiled pack stores them, see compiled.ts). */
  static open(entities: ReadonlyMap<string, Entity>, adjacency: ReadonlyMap<string, Relationship[]>): GraphIndex {
    return new GraphIndex(entities, adjacency);
  }

  /** Builds the adjacency map in time slices that give the event loop back (see steps.ts). */
  static build(entities: ReadonlyMap<string, Entity>, relationships: Iterable<Relationship>): Promise<GraphIndex> {
    return runAsync(adjacencySteps(relationships)).then((adjacency) => new GraphIndex(entities, adjacency));
  }

  static buildSync(entities: ReadonlyMap<string, Entity>, relationships: Iterable<Relationship>): GraphIndex {
    return new GraphIndex(entities, runSync(adjacencySteps(relationships)));
  }

  /** Undefined when the root is not a released entity. */
  walk(query: GraphQuery): GraphResult | undefined {
    const root = this.entities.get(query.rootId);
    if (!root) return undefined;
    const depth = new Map<string, number>([[root.id, 0]]);
    const order: string[] = [root.id];
    let truncated = false;

    walk: for (let head = 0; head < order.length; head++) {
      const id = order[head]!;
      const d = depth.get(id)!;
      for (const r of this.adjacency.get(id) ?? []) {
        const neighbour = across(r, id);
        if (depth.has(neighbour)) continue;
        if (d >= query.maxDepth || order.length >= query.maxNodes) {
          // A neighbour exists that a bound keeps out. Nothing later can be added either: the node
          // bound is reached, or (BFS order) every node still queued sits at the depth bound.
          truncated = true;
          break walk;
        }
        depth.set(neighbour, d + 1);
        order.push(neighbour);
      }
    }

    const edges = new Map<string, GraphEdge>();
    for (const id of order) {
      for (const r of this.adjacency.get(id) ?? []) {
        if (!depth.has(across(r, id)) || edges.has(r.id)) continue;
        edges.set(r.id, { id: r.id, source: r.source, target: r.target, label: r.label, type: r.type, confidence: r.confidence });
      }
    }
    return {
      rootId: root.id,
      nodes: order.map((id) => {
        const e = this.entities.get(id)!;
        return { id: e.id, label: e.displayName, kind: e.kind, group: e.kind, description: e.description };
      }),
      edges: [...edges.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      truncated,
    };
  }
}
