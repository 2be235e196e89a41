import type { z } from 'zod';
import type { HexagramFile } from './pack-format.js';
import type { Passage } from './model.js';

type Hexagram = z.infer<typeof HexagramFile>[number];

/** "guī mèi" -> "Guimei": the tone-free pinyin name used in locators. */
export function locatorName(pinyin: string): string {
  const plain = pinyin.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z]/gi, '').toLowerCase();
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/**
 * A hexagram becomes several passages, each with its own stable locator: the judgment
 * (`Yijing 54 (Guimei)`), each line (`... line 3`), 用九/用六 (`... use nines|use sixes`), the
 * Tuan commentary and the Great Image. The judgment and lines belong to the Zhouyi text itself;
 * the Tuan and Image are the classical commentaries (a separate source, grade B).
 */
export function hexagramPassages(h: Hexagram, sources: { text: string; commentary: string }): Passage[] {
  const base = `Yijing ${h.number} (${locatorName(h.pinyin)})`;
  const id = (part: string) => `yijing.${h.number}.${part}`;
  const common = { packId: 'yijing', tradition: 'confucian' as const, hexagram: h.number, title: `${h.name} ${h.name_en}` };
  const passages: Passage[] = [
    { ...common, id: id('judgment'), locator: base, sourceId: sources.text, text: h.judgment, en: h.en.judgment, part: 'judgment' },
    ...h.lines.map((line) => ({
      ...common,
      id: id(`line${line.position}`),
      locator: `${base} line ${line.position}`,
      sourceId: sources.text,
      text: line.text,
      en: h.en.lines[line.position - 1],
      part: 'line' as const,
    })),
  ];
  if (h.extra_line) {
    passages.push({
      ...common,
      id: id('extra'),
      locator: `${base} ${h.extra_line.label === '用九' ? 'use nines' : 'use sixes'}`,
      sourceId: sources.text,
      text: h.extra_line.text,
      en: h.en.extra,
      part: 'line',
    });
  }
  passages.push(
    { ...common, id: id('tuan'), locator: `${base} Tuan`, sourceId: sources.commentary, text: h.tuan, en: h.en.tuan, part: 'tuan' },
    { ...common, id: id('image'), locator: `${base} Image`, sourceId: sources.commentary, text: h.image, en: h.en.image, part: 'image' },
  );
  return passages;
}
