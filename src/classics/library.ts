import { join } from 'node:path';
import { compileGate, selfTest, type Gate, type SelfTestResult } from '../gate/gate.js';
import { KnowledgeGraph } from './graph.js';
import { loadKnowledge, type Knowledge } from './packs.js';
import { Retrieval } from './retrieval.js';

/** The loaded release with its read models: what every classics feature reads from. */
export interface Library {
  knowledge: Knowledge;
  retrieval: Retrieval;
  graph: KnowledgeGraph;
  gate: Gate;
  /** The Gate run over every fixture shipped with the packs, at load. */
  gateSelfTest: SelfTestResult;
  releaseId: string;
  errors: string[];
}

export function openLibrary(packsDir: string): Library {
  const { knowledge, errors } = loadKnowledge(join(packsDir, 'classics'));
  const gate = compileGate(
    knowledge.gateRules ?? { version: 'none', aboutClassics: '$^', categories: {}, rules: [] },
    knowledge.misreadings.map((m) => ({
      id: m.id,
      assertions: [...m.assertions_zh, ...m.assertions_en],
      // The classical concepts the misreading distorts, by every name a user types.
      triggers: m.concept_ids
        .map((id) => knowledge.conceptById.get(id))
        .filter((c) => c && c.tradition !== 'common')
        .flatMap((c) => [c!.zh, c!.zh_traditional, c!.en, c!.pinyin_plain, ...c!.aliases]),
      correction_zh: m.correction_zh,
      correction_en: m.correction_en,
    })),
  );
  return {
    knowledge,
    retrieval: new Retrieval(knowledge),
    graph: new KnowledgeGraph(knowledge),
    gate,
    gateSelfTest: selfTest(gate, knowledge.gateFixtures),
    releaseId: knowledge.currentRelease?.id ?? 'unreleased',
    errors,
  };
}
