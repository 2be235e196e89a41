/** The classics knowledge model (DESIGN.md section 6), as loaded from the packs. */

export type Tradition = 'daoist' | 'confucian' | 'buddhist' | 'yangming';
export const TRADITIONS: readonly Tradition[] = ['daoist', 'confucian', 'buddhist', 'yangming'];
export const SCHOOL_CHAR: Record<Tradition, string> = { daoist: '道', confucian: '儒', buddhist: '佛', yangming: '心' };

export type TrustLevel = 'T0' | 'T1' | 'T2' | 'T3' | 'T4';
export const TRUST_ORDER: readonly TrustLevel[] = ['T0', 'T1', 'T2', 'T3', 'T4'];
export type ClaimType = 'TEXT' | 'FACT' | 'INTERPRETATION' | 'INFERENCE' | 'OPINION' | 'ACTION';
export type TruthBoundary = 'direct' | 'inferred' | 'applied';

export interface Source {
  id: string;
  packId: string;
  title: string;
  title_en: string;
  tradition: Tradition;
  edition: string;
  source_grade: 'A' | 'B' | 'C';
  license: string;
  provenance?: string;
}

export interface Passage {
  id: string;
  packId: string;
  sourceId: string;
  tradition: Tradition;
  locator: string;
  text: string;
  en?: string;
  title?: string;
  /** Yijing: which part of a hexagram. */
  part?: 'judgment' | 'line' | 'tuan' | 'image';
  hexagram?: number;
  topics?: string[];
}

export interface Concept {
  id: string;
  tradition: Tradition | 'common';
  zh: string;
  zh_traditional: string;
  pinyin: string;
  pinyin_plain: string;
  en: string;
  aliases: string[];
  definition_zh: string;
  definition_en: string;
  key_locators: string[];
  relations: { type: 'similar' | 'contrasts' | 'non_equivalent' | 'part_of'; target: string; note: string }[];
}

export interface EvidenceSpan {
  passage_id: string;
  /** Verbatim substring of the passage text. */
  quote: string;
}

export interface Claim {
  id: string;
  packId: string;
  statement_zh: string;
  statement_en: string;
  claim_type: ClaimType;
  trust_level: TrustLevel;
  truth_boundary: TruthBoundary;
  perspective: Tradition | 'cross';
  evidence: EvidenceSpan[];
  concept_ids?: string[];
}

export interface ConflictRecord {
  id: string;
  severity: 'minor' | 'significant';
  topic_zh: string;
  topic_en: string;
  positions: { label_zh: string; label_en: string; claim_ids: string[] }[];
  note_en: string;
  note_zh: string;
}

export interface Misreading {
  id: string;
  concept_ids: string[];
  wrong_zh: string;
  wrong_en: string;
  assertions_zh: string[];
  assertions_en: string[];
  why_zh: string;
  why_en: string;
  correction_zh: string;
  correction_en: string;
  evidence_locators: string[];
}

export interface GateFixture {
  id: string;
  pair: string;
  text: string;
  lang: 'zh' | 'en';
  expect: 'block' | 'allow';
  category: string;
  trigger: string;
}

export interface SituationPerspective {
  passage_ids: string[];
  zh: string;
  en: string;
}

export interface Situation {
  id: string;
  title_zh: string;
  title_en: string;
  domain: string;
  phrasings_zh: string[];
  phrasings_en: string[];
  tension_zh: string;
  tension_en: string;
  perspectives: Partial<Record<Tradition, SituationPerspective>>;
  concept_ids?: string[];
}

/**
 * A story told about the classics or their authors that the classics themselves do not record
 * (Confucius visiting Laozi), or a teaching turned into its opposite (Wang Yangming opposing
 * 存天理，去人欲): a question resting on it is answered by saying where the story is from or what
 * the text says instead, never from passages that merely share its words.
 */
export interface UnrecordedStory {
  id: string;
  title_en: string;
  /** Regular expressions (Unicode mode) over the normalized question; any one names the story. */
  patterns: string[];
  note_zh: string;
  note_en: string;
}

export interface Release {
  id: string;
  status: 'released' | 'candidate' | 'withdrawn' | 'superseded';
  createdAt: string;
  notes: string;
  packs: { id: string; version: string; sha256: string }[];
  criticalItems: string[];
}

export interface ReadingPath {
  id: string;
  title_zh: string;
  title_en: string;
  tradition: Tradition | 'cross';
  description_zh: string;
  description_en: string;
  steps: { passage_id: string; why_zh: string; why_en: string }[];
}

/** A product that calls the service: its adapter fixture (packs/classics/core/products.json). */
export interface Product {
  id: string;
  name: string;
  description: string;
  defaultProjectionId: string;
  defaultPackIds: string[];
  requestShape: Record<string, unknown>;
  runtimeMapping: { runtimeMode: 'lookup' | 'explore' | 'compare' | 'source' | 'path' | 'report_support'; [field: string]: string };
  responseProjection: { fields: string[] };
  discoveryCapabilities: Record<string, boolean>;
}

export interface Guidance {
  domain: string;
  question_zh: string;
  question_en: string;
  action_zh: string;
  action_en: string;
}
