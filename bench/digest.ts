/**
 * What the answering pipelines return for every text of the evaluation sets and the Gate
 * fixtures, hashed: a change made for speed must leave this digest as it was.
 *
 *   npx tsx bench/digest.ts                 # prints the digest and the number of calls
 *   npx tsx bench/digest.ts --out FILE      # also writes every output, one JSON line per call, to compare
 *   npx tsx bench/digest.ts --step 10       # every tenth text only, for a quick look while working
 *
 * Each text goes through trusted query, illumination and insights (with synthesis) with every
 * cache off; request ids are fixed and the trace's timings left out, so two runs on the same
 * code and packs give the same bytes.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeInsights } from '../src/classics/illumination/insights.js';
import { illuminate } from '../src/classics/illumination/illuminate.js';
import { openLibrary } from '../src/classics/library.js';
import { trustedQuery } from '../src/classics/tq/pipeline.js';

const root = join(import.meta.dirname, '..');
const evalDir = join(root, 'test', 'eval');
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;

function texts(): string[] {
  const out = new Set<string>();
  for (const file of readdirSync(evalDir).sort()) {
    if (!file.endsWith('.json') || file === 'results.json') continue;
    const data = read(join(evalDir, file));
    const items = Array.isArray(data) ? data : ((data as { cases?: unknown[]; questions?: unknown[] }).cases ?? (data as { questions?: unknown[] }).questions ?? []);
    for (const item of items as Record<string, unknown>[]) {
      const text = item.question ?? item.text;
      if (typeof text === 'string') out.add(text);
    }
  }
  for (const f of read(join(root, 'packs', 'classics', 'core', 'gate-fixtures.json')) as { text: string }[]) out.add(f.text);
  return [...out];
}

const lib = openLibrary(join(root, 'packs'), { answerCacheEntries: 0 });
const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const outFile = option('--out');
const step = Number(option('--step') ?? 1);
const hash = createHash('sha256');
const lines: string[] = [];
let calls = 0;
const record = (kind: string, text: string, value: unknown) => {
  const line = JSON.stringify({ kind, text, value });
  hash.update(line).update('\n');
  if (outFile) lines.push(line);
  calls++;
};

const started = performance.now();
for (const text of texts().filter((_, i) => i % step === 0)) {
  const { answer, trace } = trustedQuery({ query: text, knowledge_scope: ['kb'], expression_mode: 'conversation' }, lib, 'q');
  record('trusted-query', text, { answer, trace: { ...trace, timingsMs: undefined } });
  record('illuminate', text, illuminate({ query: text }, lib, 'q'));
  record('insights', text, composeInsights({ productId: 'daily-reflection', scenario: 'daily reflection', privacyMode: 'private', userText: text, synthesize: true }, lib, { requestId: 'r' }));
}
if (outFile) writeFileSync(outFile, lines.join('\n') + '\n');
process.stdout.write(`${hash.digest('hex')}  ${calls} calls in ${Math.round(performance.now() - started)} ms\n`);
