import type { Library } from '../../classics/library.js';
import type { Passage, Source } from '../../classics/model.js';
import type { z } from 'zod';
import type { ObjectKind } from './schemas-part1.js';

/** What an objectId names in the served release (read-only). */
export interface ServedObject {
  kind: z.infer<typeof ObjectKind>;
  /** For a passage: the passage and its source. */
  passage?: Passage;
  source?: Source;
}

/**
 * Resolves an objectId against the served release: graph node ids (passages, claims, concepts,
 * sources, situations) and passage locators (`Daodejing 8`). Anything else is `unknown`.
 */
export function servedObject(lib: Library, objectId: string): ServedObject {
  const k = lib.knowledge;
  const passage = k.passageById.get(objectId) ?? k.passageByLocator.get(objectId);
  if (passage) return { kind: 'passage', passage, source: k.sources.get(passage.sourceId) };
  const node = lib.graph.nodes.get(objectId);
  return { kind: node ? node.type : 'unknown' };
}
