/**
 * `npm run packs:train [-- --gate-sets N --question-sets M]`: trains the packs' two learned
 * models and writes them to packs/classics/core:
 *
 * - gate-model.json: allow, or the Gate category of a request to block. The Gate blocks what its
 *   rules block and, besides, what this model gives less than `threshold` probability of allow;
 *   it allows what a rule blocks when the model gives allow at least `overrule` probability, and
 *   blocks as crisis whatever gets crisis at least its `classThresholds` probability.
 * - answerability-model.json: answerable, or why not (no evidence in the texts, a false premise,
 *   out of scope). A trusted query abstains when the model gives it less than `threshold`
 *   probability of being answerable.
 *
 * - precedents.json: the answerable questions with the passages their answers rest on; a trusted
 *   query borrows the passages of its nearest precedents (src/classics/precedents.ts).
 *
 * By default it trains on every Gate and question set in test/eval; with the options, on the
 * sets up to those numbers, so that later sets measure the model unseen. Then run `npm run
 * packs:release -- <id>` to pin the changed core pack.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { trainClassifier } from '../src/classics/classifier.js';
import { openLibrary } from '../src/classics/library.js';
import { createHash } from 'node:crypto';
import { PRECEDENTS_FORMAT } from '../src/classics/precedents.js';
import { ANSWERABILITY_CLASSES, answerabilityExamples, examplesDigest, GATE_CLASSES, gateExamples, gateSetFiles, precedentExamples, questionSetFiles } from './training-data.js';

const EVAL_DIR = 'test/eval';
const CORE = 'packs/classics/core';
const { values } = parseArgs({ options: { 'gate-sets': { type: 'string' }, 'question-sets': { type: 'string' } } });
const newest = (files: { n: number }[]) => files[files.length - 1]!.n;
const gateSets = Number(values['gate-sets'] ?? newest(gateSetFiles(EVAL_DIR)));
const questionSets = Number(values['question-sets'] ?? newest(questionSetFiles(EVAL_DIR)));
if (!Number.isInteger(gateSets) || !Number.isInteger(questionSets) || gateSets < 1 || questionSets < 1) {
  process.stderr.write('usage: npm run packs:train -- [--gate-sets N] [--question-sets M]\n');
  process.exit(2);
}

const precedentsDigest = (list: { q: string; p: string[] }[]) => createHash('sha256').update(JSON.stringify(list)).digest('hex');
const write = (file: string, model: object) => {
  writeFileSync(join(CORE, file), JSON.stringify(model) + '\n');
  process.stdout.write(`wrote ${join(CORE, file)}\n`);
};

// The rules' reading of a text (spellings, asides) does not depend on the model being replaced.
const lib = openLibrary('packs');
const gate = gateExamples(CORE, EVAL_DIR, gateSets, questionSets, lib.gate.prepare);
write(
  'gate-model.json',
  trainClassifier(gate, GATE_CLASSES, {
    purpose: 'Gate: allow, or the category of a request to block. Blocks what the rules allow when allow has less than threshold probability; allows what a rule blocks when allow has at least overrule probability.',
    threshold: 0.5,
    overrule: 0.99,
    classThresholds: { crisis: 0.1 },
    trainedOn: { sources: ['core/gate-fixtures.json', `test/eval Gate sets 1-${gateSets}`, 'core/situations.json wordings as allow', `test/eval question sets 1-${questionSets}, answerable questions as allow`], examples: gate.length, sha256: examplesDigest(gate), gateSets, questionSets },
  }),
);
const answerability = answerabilityExamples(EVAL_DIR, questionSets, lib.knowledge);
write(
  'answerability-model.json',
  trainClassifier(answerability, ANSWERABILITY_CLASSES, {
    purpose: 'Trusted query: answerable, or why not. Abstains when answerable has less than threshold probability.',
    threshold: 0.5,
    trainedOn: { sources: [`test/eval question sets 1-${questionSets}`, 'first sentences of the passages, concept names and situation wordings as answerable'], examples: answerability.length, sha256: examplesDigest(answerability), questionSets },
  }),
);
const precedents = precedentExamples(EVAL_DIR, questionSets, lib.knowledge);
write('precedents.json', {
  format: PRECEDENTS_FORMAT,
  trainedOn: { sources: [`test/eval question sets 1-${questionSets}, answerable questions with their expected passages`], examples: precedents.length, sha256: precedentsDigest(precedents), questionSets },
  neighbours: 10,
  minSimilarity: 0.2,
  minShare: 0.2,
  relevance: 0.9,
  questions: precedents,
});
