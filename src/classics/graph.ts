import type { Knowledge } from './packs.js';

export type NodeType = 'concept' | 'passage' | 'claim' | 'source' | 'situation';

export interface GraphNode {
  id: string;
  type: NodeType;
  label: string;
  tradition?: string;
  locator?: string;
}

export interface GraphEdge {
  source: string;
  target: string;
  /** similar | contrasts | non_equivalent | part_of | evidence | about | conflicts_minor | conflicts_significant | in_source | key_passage | perspective */
  type: string;
}

/**
 * The knowledge graph read model (v2): concepts, passages, claims, sources and situations as
 * nodes; typed concept relations, evidence bindings, conflicts and the other links as edges.
 * Built once per loaded release; reads never change it.
 */
export class KnowledgeGraph {
  readonly nodes = new Map<string, GraphNode>();
  private readonly adjacency = new Map<string, GraphEdge[]>();

  constructor(k: Knowledge) {
    for (const s of k.sources.values()) this.nodes.set(s.id, { id: s.id, type: 'source', label: s.title_en, tradition: s.tradition });
    for (const p of k.passages) this.nodes.set(p.id, { id: p.id, type: 'passage', label: p.locator, tradition: p.tradition, locator: p.locator });
    for (const c of k.concepts) this.nodes.set(c.id, { id: c.id, type: 'concept', label: `${c.zh} ${c.en}`, tradition: c.tradition });
    for (const c of k.claims) this.nodes.set(c.id, { id: c.id, type: 'claim', label: c.statement_en, tradition: c.perspective });
    for (const s of k.situations) this.nodes.set(s.id, { id: s.id, type: 'situation', label: s.title_en });

    for (const p of k.passages) this.add({ source: p.id, target: p.sourceId, type: 'in_source' });
    for (const c of k.concepts) {
      for (const r of c.relations) this.add({ source: c.id, target: r.target, type: r.type });
      for (const l of c.key_locators) {
        const p = k.passageByLocator.get(l);
        if (p) this.add({ source: c.id, target: p.id, type: 'key_passage' });
      }
    }
    for (const c of k.claims) {
      for (const e of c.evidence) this.add({ source: c.id, target: e.passage_id, type: 'evidence' });
      for (const id of c.concept_ids ?? []) this.add({ source: c.id, target: id, type: 'about' });
    }
    for (const conflict of k.conflicts) {
      const [first, ...others] = conflict.positions;
      for (const a of first?.claim_ids ?? []) {
        for (const pos of others) for (const b of pos.claim_ids) this.add({ source: a, target: b, type: `conflicts_${conflict.severity}` });
      }
    }
    for (const s of k.situations) {
      for (const view of Object.values(s.perspectives)) for (const id of view?.passage_ids ?? []) this.add({ source: s.id, target: id, type: 'perspective' });
      for (const id of s.concept_ids ?? []) this.add({ source: s.id, target: id, type: 'about' });
    }
    for (const list of this.adjacency.values()) list.sort((a, b) => a.type.localeCompare(b.type) || a.source.localeCompare(b.source) || a.target.localeCompare(b.target));
  }

  private add(edge: GraphEdge) {
    if (!this.nodes.has(edge.source) || !this.nodes.has(edge.target)) return;
    for (const end of [edge.source, edge.target]) {
      const list = this.adjacency.get(end) ?? [];
      list.push(edge);
      this.adjacency.set(end, list);
    }
  }

  degree(id: string): number {
    return this.adjacency.get(id)?.length ?? 0;
  }

  /**
   * Breadth-first walk from the seeds. `truncated` is true when the node limit stopped the walk
   * while nodes were still waiting to be visited.
   */
  walk(seeds: string[], depth: number, options: { relationTypes?: string[]; nodeLimit?: number } = {}) {
    const limit = options.nodeLimit ?? Number.MAX_SAFE_INTEGER;
    const allowed = options.relationTypes ? new Set(options.relationTypes) : undefined;
    const seen = new Set<string>();
    let frontier: string[] = [];
    let truncated = false;
    for (const seed of seeds) {
      if (seen.size >= limit) {
        truncated = true;
        break;
      }
      if (!seen.has(seed)) {
        seen.add(seed);
        frontier.push(seed);
      }
    }
    for (let level = 0; level < depth && frontier.length && !truncated; level++) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const edge of this.adjacency.get(id) ?? []) {
          if (allowed && !allowed.has(edge.type)) continue;
          const other = edge.source === id ? edge.target : edge.source;
          if (seen.has(other)) continue;
          if (seen.size >= limit) {
            truncated = true;
            break;
          }
          seen.add(other);
          next.push(other);
        }
        if (truncated) break;
      }
      frontier = next;
    }
    const edges: GraphEdge[] = [];
    const keys = new Set<string>();
    for (const id of seen) {
      for (const edge of this.adjacency.get(id) ?? []) {
        if (allowed && !allowed.has(edge.type)) continue;
        if (!seen.has(edge.source) || !seen.has(edge.target)) continue;
        const key = `${edge.source}|${edge.type}|${edge.target}`;
        if (keys.has(key)) continue;
        keys.add(key);
        edges.push(edge);
      }
    }
    return { nodes: [...seen].map((id) => this.nodes.get(id)!), edges, truncated };
  }
}
