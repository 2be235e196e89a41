/**
 * `npm run packs:check`: validates every released pack and prints what it holds. Exit 1 with the
 * list of problems when anything is wrong. `npm test` runs it first.
 *
 * In a checkout with the evaluation sets, it also checks that each learned model of the core
 * pack was trained on the examples the training data gives today (see scripts/training-data.ts):
 * a changed fixture or set needs `npm run packs:train`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPacks } from '../src/packs-check.js';
import { openLibrary } from '../src/classics/library.js';
import { answerabilityExamples, examplesDigest, gateExamples } from './training-data.js';

const packsDir = process.env.PACKS_DIR ?? 'packs';
const report = checkPacks(packsDir);
const core = join(packsDir, 'classics', 'core');
if (existsSync('test/eval') && !report.errors.length) {
  const lib = openLibrary(packsDir);
  const { prepare } = lib.gate;
  const models = [
    { file: 'gate-model.json', examples: (t: { gateSets: number; questionSets: number }) => gateExamples(core, 'test/eval', t.gateSets, t.questionSets, prepare) },
    { file: 'answerability-model.json', examples: (t: { questionSets: number }) => answerabilityExamples('test/eval', t.questionSets, lib.knowledge) },
  ];
  for (const { file, examples } of models) {
    if (!existsSync(join(core, file))) continue;
    const trainedOn = JSON.parse(readFileSync(join(core, file), 'utf8')).trainedOn;
    try {
      const now = examples(trainedOn);
      if (examplesDigest(now) !== trainedOn.sha256) report.errors.push(`${file}: trained on other examples than the fixtures and sets give now (run npm run packs:train, then npm run packs:release)`);
      else report.summary.push(`ok    ${file}: trained on ${now.length} examples (${trainedOn.sources.join('; ')})`);
    } catch (error) {
      report.errors.push(`${file}: its training data cannot be read (${(error as Error).message})`);
    }
  }
}
for (const line of report.summary) process.stdout.write(`${line}\n`);
if (report.errors.length) {
  process.stderr.write(`\n${report.errors.length} problem(s):\n${report.errors.map((e) => `  - ${e}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('packs: ok\n');
