import type { GraphNode } from './graph.js';
import type { Knowledge } from './packs.js';

/** The record behind a graph node, as the node endpoint shows it. */
export function nodeData(k: Knowledge, node: GraphNode): Record<string, unknown> {
  switch (node.type) {
    case 'passage': {
      const { id, locator, text, en, sourceId, packId, tradition } = k.passageById.get(node.id)!;
      return { id, locator, text, en, sourceId, packId, tradition };
    }
    case 'concept':
      return { ...k.conceptById.get(node.id)! };
    case 'claim':
      return { ...k.claimById.get(node.id)! };
    case 'source':
      return { ...k.sources.get(node.id)! };
    case 'situation':
      return { ...k.situationById.get(node.id)! };
  }
}
