import { z } from 'zod';

/** File formats of the classics packs (packs/classics/<pack>/...). One schema per file. */

const cjkText = z.string().min(1).refine((s) => !/[A-Za-z]/.test(s), 'classical text must not contain Latin letters');
export const TraditionSchema = z.enum(['daoist', 'confucian', 'buddhist', 'yangming']);
const id = (pattern: RegExp) => z.string().regex(pattern);

export const PackManifestFile = z.object({
  id: id(/^[a-z][a-z0-9-]*$/),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  title: z.string().min(1),
  title_zh: z.string().min(1),
  kind: z.enum(['classic', 'cross']),
  traditions: z.array(TraditionSchema).min(1),
  description: z.string().min(1),
  sources: z
    .array(
      z.object({
        id: id(/^src\.[a-z0-9.-]+$/),
        title: z.string().min(1),
        title_en: z.string().min(1),
        tradition: z.union([TraditionSchema, z.literal('cross')]),
        edition: z.string().min(1),
        source_grade: z.enum(['A', 'B', 'C']),
        license: z.string().min(1),
        provenance: z.string().optional(),
      }),
    )
    .min(1),
});

export const PassageFile = z.array(
  z.object({
    id: id(/^[a-z]+(\.[0-9]+)+$/),
    locator: z.string().min(1),
    text: cjkText,
    en: z.string().min(1).optional(),
    title: z.string().optional(),
    title_en: z.string().optional(),
    chapter: z.number().int().optional(),
    section: z.number().int().optional(),
    number: z.number().int().optional(),
    book: z.number().int().optional(),
    passage: z.number().int().optional(),
    book_title: z.string().optional(),
    volume: z.string().optional(),
    recorder: z.string().optional(),
    topics: z.array(z.string()).optional(),
  }),
);

const Trigram = z.enum(['乾', '坤', '震', '巽', '坎', '离', '艮', '兑']);

export const HexagramFile = z.array(
  z.object({
    number: z.number().int().min(1).max(64),
    name: z.string().min(1),
    name_traditional: z.string().min(1),
    pinyin: z.string().min(1),
    name_en: z.string().min(1),
    upper: Trigram,
    lower: Trigram,
    judgment: cjkText,
    lines: z
      .array(z.object({ position: z.number().int().min(1).max(6), label: z.string().min(2), text: cjkText }))
      .length(6),
    extra_line: z.object({ label: z.enum(['用九', '用六']), text: cjkText }).optional(),
    tuan: cjkText,
    image: cjkText,
    en: z.object({
      judgment: z.string().min(1),
      image: z.string().min(1),
      /** The six line statements, bottom to top, without the position label (初九, Nine at the beginning): the locator has it. */
      lines: z.array(z.string().min(1)).length(6),
      /** 用九 or 用六, for the two hexagrams that have it. */
      extra: z.string().min(1).optional(),
      tuan: z.string().min(1),
    }),
  })
    .refine((h) => Boolean(h.extra_line) === Boolean(h.en.extra), { message: 'en.extra renders extra_line, and is there exactly when it is' }),
);

export const ClaimFile = z.array(
  z.object({
    id: id(/^claim\.[a-z0-9.-]+$/),
    statement_zh: z.string().min(1),
    statement_en: z.string().min(1),
    claim_type: z.enum(['TEXT', 'FACT', 'INTERPRETATION', 'INFERENCE', 'OPINION', 'ACTION']),
    trust_level: z.enum(['T0', 'T1', 'T2', 'T3', 'T4']),
    truth_boundary: z.enum(['direct', 'inferred', 'applied']),
    perspective: z.union([TraditionSchema, z.literal('cross')]),
    evidence: z.array(z.object({ passage_id: z.string().min(1), quote: z.string().min(1) })),
    concept_ids: z.array(z.string()).optional(),
  }),
);

export const ConceptFile = z.array(
  z.object({
    id: id(/^concept\.[a-z0-9.-]+$/),
    tradition: z.union([TraditionSchema, z.literal('common')]),
    zh: z.string().min(1),
    zh_traditional: z.string().min(1),
    pinyin: z.string(),
    pinyin_plain: z.string(),
    en: z.string().min(1),
    aliases: z.array(z.string().min(1)),
    definition_zh: z.string().min(1),
    definition_en: z.string().min(1),
    key_locators: z.array(z.string()),
    relations: z.array(
      z.object({ type: z.enum(['similar', 'contrasts', 'non_equivalent', 'part_of']), target: z.string(), note: z.string().min(1) }),
    ),
  }),
);

export const MisreadingFile = z.array(
  z.object({
    id: id(/^mis\.[a-z0-9.-]+$/),
    concept_ids: z.array(z.string()),
    wrong_zh: z.string().min(1),
    wrong_en: z.string().min(1),
    assertions_zh: z.array(z.string().min(2)).min(1),
    assertions_en: z.array(z.string().min(3)).min(1),
    why_zh: z.string().min(1),
    why_en: z.string().min(1),
    correction_zh: z.string().min(1),
    correction_en: z.string().min(1),
    evidence_locators: z.array(z.string()).min(1),
  }),
);

export const GateFixtureFile = z.array(
  z.object({
    id: z.string().min(1),
    pair: z.string().min(1),
    text: z.string().min(1),
    lang: z.enum(['zh', 'en']),
    expect: z.enum(['block', 'allow']),
    category: z.string().min(1),
    trigger: z.string().min(1),
  }),
);

export const ConflictFile = z.array(
  z.object({
    id: id(/^conflict\.[a-z0-9.-]+$/),
    severity: z.enum(['minor', 'significant']),
    topic_zh: z.string().min(1),
    topic_en: z.string().min(1),
    positions: z.array(z.object({ label_zh: z.string().min(1), label_en: z.string().min(1), claim_ids: z.array(z.string()).min(1) })).min(2),
    note_zh: z.string().min(1),
    note_en: z.string().min(1),
  }),
);

const Perspective = z.object({ passage_ids: z.array(z.string()).min(1), zh: z.string().min(1), en: z.string().min(1) });

export const SituationFile = z.array(
  z.object({
    id: id(/^situation\.[a-z0-9.-]+$/),
    title_zh: z.string().min(1),
    title_en: z.string().min(1),
    domain: z.string().min(1),
    phrasings_zh: z.array(z.string().min(1)).min(1),
    phrasings_en: z.array(z.string().min(1)).min(1),
    tension_zh: z.string().min(1),
    tension_en: z.string().min(1),
    perspectives: z.object({
      daoist: Perspective.optional(),
      confucian: Perspective.optional(),
      buddhist: Perspective.optional(),
      yangming: Perspective.optional(),
    }),
    concept_ids: z.array(z.string()).optional(),
  }),
);

export const ReleaseFile = z.object({
  id: id(/^[a-z0-9][a-z0-9.-]*$/),
  status: z.enum(['released', 'candidate', 'withdrawn', 'superseded']),
  createdAt: z.iso.datetime(),
  notes: z.string(),
  packs: z.array(z.object({ id: z.string(), version: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })).min(1),
  criticalItems: z.array(z.string()),
});

export const ReadingPathFile = z.array(
  z.object({
    id: id(/^path\.[a-z0-9.-]+$/),
    title_zh: z.string().min(1),
    title_en: z.string().min(1),
    tradition: z.union([TraditionSchema, z.literal('cross')]),
    description_zh: z.string().min(1),
    description_en: z.string().min(1),
    steps: z.array(z.object({ passage_id: z.string().min(1), why_zh: z.string().min(1), why_en: z.string().min(1) })).min(2),
  }),
);

export const ProductFile = z
  .array(
    z.object({
      id: id(/^[a-z][a-z0-9-]*$/),
      name: z.string().min(1),
      description: z.string().min(1),
      defaultProjectionId: z.string().min(1),
      defaultPackIds: z.array(z.string().min(1)).min(1),
      requestShape: z.record(z.string(), z.unknown()),
      runtimeMapping: z.object({ runtimeMode: z.enum(['lookup', 'explore', 'compare', 'source', 'path', 'report_support']) }).catchall(z.string()),
      responseProjection: z.object({ fields: z.array(z.string().min(1)).min(1) }),
      discoveryCapabilities: z.record(z.string(), z.boolean()),
    }),
  )
  .length(5, 'exactly five products');

/** Reflective questions and small actions per life domain (packs/classics/core/guidance.json). */
export const GuidanceFile = z.array(
  z.object({
    domain: z.string().min(1),
    question_zh: z.string().min(1),
    question_en: z.string().min(1),
    action_zh: z.string().min(1),
    action_en: z.string().min(1),
  }),
);

/** Stories about the classics that they do not record, and teachings reversed (see UnrecordedStory). */
export const UnrecordedFile = z.array(
  z.object({
    id: z.string().regex(/^unrecorded\.[a-z0-9.-]+$/),
    title_en: z.string().min(1),
    patterns: z.array(z.string().min(1)).min(1),
    note_zh: z.string().min(1),
    note_en: z.string().min(1),
  }),
);

/** Groups of words people use for the same thing (dad/father/爸), used to match situations. */
export const SynonymFile = z.array(z.array(z.string().min(1)).min(2));
