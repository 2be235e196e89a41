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

interface Link {
  neighbour: string;
  relationship: Relationship;
}

const byNeighbourThenId = (a: Link, b: Link) =>
  a.neighbour < b.neighbour ? -1 : a.neighbour > b.neighbour ? 1 : a.relationship.id < b.relationship.id ? -1 : a.relationship.id > b.relationship.id ? 1 : 0;

/** Both directions of every relationship, each list in (neighbour id, relationship id) order. */
function* adjacencySteps(relationships: Iterable<Relationship>): Steps<Map<string, Link[]>> {
  const tick = ticker(512);
  const adjacency = new Map<string, Link[]>();
  const link = (from: string, to: string, relationship: Relationship) => {
    const list = adjacency.get(from);
    if (list) list.push({ neighbour: to, relationship });
    else adjacency.set(from, [{ neighbour: to, relationship }]);
  };
  for (const r of relationships) {
    link(r.source, r.target, r);
    if (r.source !== r.target) link(r.target, r.source, r);
    if (tick()) yield;
  }
  for (const list of adjacency.values()) {
    list.sort(byNeighbourThenId);
    if (tick()) yield;
  }
  return adjacency;
}

export class GraphIndex {
  private constructor(
    private readonly entities: ReadonlyMap<string, Entity>,
    private readonly adjacency: ReadonlyMap<string, Link[]>,
  ) {}

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
      for (const { neighbour } of this.adjacency.get(id) ?? []) {
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
      for (const { neighbour, relationship: r } of this.adjacency.get(id) ?? []) {
        if (!depth.has(neighbour) || edges.has(r.id)) continue;
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
