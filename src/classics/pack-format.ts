import { z } from 'zod';

/** File formats of the classics packs (packs/classics/<pack>/...). One schema per file. */

const cjkText = z.string().min(1).refine((s) => !/[A-Za-z]/.test(s), 'classical text must not contain Latin letters');

export const PassageFile = z.array(
  z.object({
    id: z.string().regex(/^[a-z]+(\.[0-9]+)+$/),
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
    en: z.object({ judgment: z.string().min(1), image: z.string().min(1) }),
  }),
);
