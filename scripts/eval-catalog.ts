/**
 * `npx tsx scripts/eval-catalog.ts > catalog.tsv`: the catalogue of passages handed to the writers
 * of new evaluation sets (see test/eval/BRIEF.md). One row per passage: the locator the sets
 * must use, the Chinese text and the English rendering, tabs and newlines flattened to spaces.
 */
import { openLibrary } from '../src/classics/library.js';

const flat = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const lib = openLibrary(process.env.PACKS_DIR ?? 'packs');
const rows = lib.knowledge.passages.map((p) => [p.locator, flat(p.text), flat(p.en)].join('\t'));
process.stdout.write(['locator\ttext\tenglish', ...rows].join('\n') + '\n');
