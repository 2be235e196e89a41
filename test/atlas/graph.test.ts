import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { synthesizePack } from '../../scripts/atlas-synth.js';
import { GraphIndex } from '../../src/atlas/graph.js';
import { validatePack, type Pack } from '../../src/atlas/pack.js';
import { fixturePack } from './helpers.js';

const pack = fixturePack();
const graph = GraphIndex.buildSync(pack.entities, pack.relationships.values());
const walk = (rootId: string, maxDepth = 2, maxNodes = 40) => graph.walk({ rootId, maxDepth, maxNodes })!;
const ids = (r: { nodes: { id: string }[] }) => r.nodes.map((n) => n.id);

// The Bauhaus component of the fixture, by distance from Walter Gropius:
// 0 gropius; 1 bauhaus; 2 breuer, dessau, modernism, weimar; 3 form-follows-function, sullivan, wassily-chair.
const COMPONENT = 9;

describe('graph walk', () => {
  it('starts at the root, walks both directions, and shapes nodes and edges', () => {
    const r = walk('organization.bauhaus', 1);
    expect(r.rootId).toBe('organization.bauhaus');
    expect(ids(r)).toEqual(['organization.bauhaus', 'movement.modernism', 'person.marcel-breuer', 'person.walter-gropius', 'place.dessau', 'place.weimar']);
    expect(r.nodes[0]).toEqual({ id: 'organization.bauhaus', label: 'Bauhaus', kind: 'organization', group: 'organization', description: 'German art school that combined crafts and the fine arts.' });
    expect(r.edges.find((e) => e.id === 'rel.gropius-founded-bauhaus')).toEqual({
      id: 'rel.gropius-founded-bauhaus',
      source: 'person.walter-gropius',
      target: 'organization.bauhaus',
      label: 'founded',
      type: 'founded',
      confidence: 0.98,
    });
  });

  it('is not truncated when the whole component fits, even exactly', () => {
    const full = walk('person.walter-gropius', 3, 200);
    expect(full.nodes).toHaveLength(COMPONENT);
    expect(full.truncated).toBe(false);
    expect(walk('person.walter-gropius', 5, COMPONENT).truncated).toBe(false);
    expect(walk('person.wilhelm-rontgen', 5, 1)).toMatchObject({ nodes: [{ id: 'person.wilhelm-rontgen' }], edges: [], truncated: false });
    expect(walk('person.sori-yanagi', 1, 2)).toMatchObject({ truncated: false, edges: [{ id: 'rel.yanagi-designed-stool' }] });
  });

  it('is truncated when the depth bound cuts', () => {
    const r = walk('person.walter-gropius', 2, 200);
    expect(ids(r)).toEqual(['person.walter-gropius', 'organization.bauhaus', 'movement.modernism', 'person.marcel-breuer', 'place.dessau', 'place.weimar']);
    expect(r.truncated).toBe(true);
    expect(walk('person.sori-yanagi', 1, 200).truncated).toBe(false);
  });

  it('is truncated when the node bound cuts', () => {
    const r = walk('person.walter-gropius', 5, COMPONENT - 1);
    expect(r.nodes).toHaveLength(COMPONENT - 1);
    expect(r.truncated).toBe(true);
    expect(walk('person.sori-yanagi', 1, 1)).toMatchObject({ nodes: [{ id: 'person.sori-yanagi' }], edges: [], truncated: true });
  });

  it('returns only edges between returned nodes', () => {
    const r = walk('person.walter-gropius', 1);
    expect(r.edges.map((e) => e.id)).toEqual(['rel.gropius-founded-bauhaus']);
    const deeper = walk('person.walter-gropius', 2, 4);
    const nodes = new Set(ids(deeper));
    expect(deeper.edges.length).toBeGreaterThan(0);
    for (const e of deeper.edges) expect(nodes.has(e.source) && nodes.has(e.target)).toBe(true);
  });

  it('never shows hidden entities or their relationships', () => {
    const r = walk('person.walter-gropius', 5, 200);
    expect(ids(r)).not.toContain('person.hidden-designer');
    expect(r.edges.map((e) => e.id)).not.toContain('rel.gropius-mentored-hidden');
    expect(graph.walk({ rootId: 'person.hidden-designer', maxDepth: 2, maxNodes: 40 })).toBeUndefined();
    expect(graph.walk({ rootId: 'person.nobody', maxDepth: 2, maxNodes: 40 })).toBeUndefined();
  });

  it('orders nodes and edges deterministically', () => {
    const a = walk('movement.modernism', 5, 200);
    expect(walk('movement.modernism', 5, 200)).toEqual(a);
    const rebuilt = GraphIndex.buildSync(pack.entities, [...pack.relationships.values()].reverse());
    expect(rebuilt.walk({ rootId: 'movement.modernism', maxDepth: 5, maxNodes: 200 })).toEqual(a);
    expect(a.edges.map((e) => e.id)).toEqual([...a.edges.map((e) => e.id)].sort());
  });
});

/** Every node within `depth` hops of root, by plain BFS without a node bound. */
function reach(p: Pack, root: string, depth: number): Set<string> {
  const seen = new Set([root]);
  let frontier = [root];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const r of p.relationships.values()) {
        const other = r.source === id ? r.target : r.target === id ? r.source : undefined;
        if (other !== undefined && !seen.has(other)) {
          seen.add(other);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  return seen;
}

describe('graph walk over a synthetic pack (properties)', () => {
  const result = validatePack(synthesizePack({ entities: 300, seed: 11 }));
  if (!result.ok) throw new Error(result.errors.join('\n'));
  const synthetic = result.pack;
  const roots = [...synthetic.entities.keys()];
  const g = GraphIndex.buildSync(synthetic.entities, synthetic.relationships.values());

  it('is truncated exactly when something within one more hop or under the depth bound was left out', () => {
    fc.assert(
      fc.property(fc.constantFrom(...roots), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 200 }), (rootId, maxDepth, maxNodes) => {
        const r = g.walk({ rootId, maxDepth, maxNodes })!;
        const returned = new Set(ids(r));
        expect(r.nodes.length).toBeLessThanOrEqual(maxNodes);
        expect(r.nodes[0]!.id).toBe(rootId);
        const within = reach(synthetic, rootId, maxDepth);
        for (const id of returned) expect(within.has(id)).toBe(true);
        expect(r.truncated).toBe(reach(synthetic, rootId, maxDepth + 1).size > returned.size);
        if (!r.truncated) expect(returned).toEqual(within);
        for (const e of r.edges) expect(returned.has(e.source) && returned.has(e.target)).toBe(true);
        // Every relationship between two returned nodes is there.
        const expected = [...synthetic.relationships.values()].filter((x) => returned.has(x.source) && returned.has(x.target)).map((x) => x.id).sort();
        expect(r.edges.map((e) => e.id)).toEqual(expected);
      }),
      { numRuns: 120 },
    );
  });
});
