import { join } from 'node:path';
import { AnswerCache } from './answer-cache.js';
import { compileGate, selfTest, type Gate, type SelfTestResult } from '../gate/gate.js';
import { KnowledgeGraph } from './graph.js';
import { loadKnowledge, type Knowledge } from './packs.js';
import { Retrieval } from './retrieval.js';
import type { TextClassifier } from './classifier.js';
import type { Precedents } from './precedents.js';

/** The loaded release with its read models: what every classics feature reads from. */
export interface Library {
  knowledge: Knowledge;
  retrieval: Retrieval;
  graph: KnowledgeGraph;
  gate: Gate;
  /** Whether a question can be answered from the texts at all (core/answerability-model.json). */
  answerability?: TextClassifier;
  /** Questions already judged, and the passages they were answered from (core/precedents.json). */
  precedents?: Precedents;
  /** The Gate run over every fixture shipped with the packs, at load. */
  gateSelfTest: SelfTestResult;
  releaseId: string;
  errors: string[];
  /** Trusted-query and illumination answers of this release, by request. */
  answers: AnswerCache;
}

export function openLibrary(packsDir: string, options: { answerCacheEntries?: number } = {}): Library {
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
    knowledge.gateModel,
  );
  return {
    knowledge,
    // With the answer cache off every question is treated as new: retrieval keeps only what one
    // request reuses (illumination searches each tradition with the same text).
    retrieval: new Retrieval(knowledge, { textCacheEntries: (options.answerCacheEntries ?? 1) > 0 ? 512 : 8 }),
    graph: new KnowledgeGraph(knowledge),
    gate,
    ...(knowledge.answerability ? { answerability: knowledge.answerability } : {}),
    ...(knowledge.precedents ? { precedents: knowledge.precedents } : {}),
    gateSelfTest: selfTest(gate, knowledge.gateFixtures),
    releaseId: knowledge.currentRelease?.id ?? 'unreleased',
    errors,
    answers: new AnswerCache(options.answerCacheEntries ?? 2048),
  };
}
