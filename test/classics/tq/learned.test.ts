import { beforeAll, describe, expect, it } from 'vitest';
import { openLibrary, type Library } from '../../../src/classics/library.js';
import { TextClassifier, type ClassifierModel } from '../../../src/classics/classifier.js';
import { Precedents } from '../../../src/classics/precedents.js';
import { notAnswerable, precedentEvidence, trustedQuery } from '../../../src/classics/tq/pipeline.js';

let lib: Library;
beforeAll(() => {
  lib = openLibrary('packs');
});

const ask = (l: Library, query: string) => trustedQuery({ query, knowledge_scope: ['kb'], expression_mode: 'conversation' }, l, 'q').answer;

/** A model that gives every text the same probabilities: its bias alone decides. */
const fixed = (classes: string[], bias: number[]): TextClassifier =>
  new TextClassifier({
    format: 'ngram-softmax/1',
    purpose: 'test',
    classes,
    threshold: 0.3,
    trainedOn: { sources: [], examples: 1, sha256: '0'.repeat(64) },
    options: { epochs: 1, l2: 0, learningRate: 0.1, minCount: 1, prune: 0, seed: 1 },
    bias,
    features: [],
    weights: [],
  } satisfies ClassifierModel);

describe('Step Answerability', () => {
  it('abstains on a question the shipped model finds unanswerable, and lets plain questions and bare lines through', () => {
    expect(notAnswerable('What does the Diamond Sutra say about smartphones?', lib)).toBe('no_evidence');
    expect(notAnswerable('Can you write me a Python script that sorts a list?', lib)).toBe('out_of_scope');
    for (const q of ['上善若水', '无为', 'What does the Daodejing say about water?', '知行合一是什么意思？', 'What is ren in the Analects?']) expect(notAnswerable(q, lib), q).toBeUndefined();
  });

  it('gives the reason the model finds likeliest: a false premise as NO_EVIDENCE with a note, out of scope as OUT_OF_SCOPE', () => {
    const premise = ask({ ...lib, answerability: fixed(['answerable', 'no_evidence', 'false_premise', 'out_of_scope'], [0, 1, 3, 0]) }, 'What does the Daodejing say about water?');
    expect(premise.abstention?.reason).toBe('NO_EVIDENCE');
    expect(premise.abstention?.message).toMatch(/rest on something the texts do not say/);
    expect(premise.citations).toEqual([]);
    const unrelated = ask({ ...lib, answerability: fixed(['answerable', 'no_evidence', 'false_premise', 'out_of_scope'], [0, 1, 0, 3]) }, 'What does the Daodejing say about water?');
    expect(unrelated.abstention?.reason).toBe('OUT_OF_SCOPE');
    // At the threshold's probability or above, the question goes on to retrieval.
    expect(ask({ ...lib, answerability: fixed(['answerable', 'no_evidence'], [0, 0]) }, 'What does the Daodejing say about water?').abstention).toBeNull();
  });
});

describe('Step Evidence from precedents', () => {
  it('lends the passage the nearest precedents rest on, in scope, beside what retrieval found', () => {
    const daodejing = lib.knowledge.passageByLocator.get('Daodejing 44')!;
    const analects = lib.knowledge.passageByLocator.get('Analects 4.12')!;
    const precedents = new Precedents(
      {
        format: 'precedents/1',
        trainedOn: { sources: [], examples: 2, sha256: '0'.repeat(64) },
        neighbours: 5,
        minSimilarity: 0.2,
        minShare: 0.2,
        relevance: 0.9,
        questions: [
          { q: 'I lost half of my savings on the stock market and keep checking the account', p: [daodejing.id] },
          { q: 'lost my savings on stocks, I check the account all day', p: [analects.id] },
        ],
      },
      lib.knowledge.passageById,
    );
    const found = [{ passage: lib.knowledge.passageByLocator.get('Daodejing 9')!, basis: 'match' as const, relevance: 0.6 }];
    const question = 'I lost my savings in stocks and keep checking the account';
    expect(precedentEvidence(question, { precedents }, {}, found)).toMatchObject({ basis: 'precedent', relevance: 0.9 });
    expect(precedentEvidence(question, { precedents }, { packIds: ['analects'] }, found)?.passage.id).toBe(analects.id);
    expect(precedentEvidence(question, { precedents }, { packIds: ['yijing'] }, found)).toBeUndefined();
    // Precedents add to evidence and never stand in for it.
    expect(precedentEvidence(question, { precedents }, {}, [])).toBeUndefined();
  });

  it('still abstains where retrieval finds nothing, however many precedents share the question’s form', () => {
    const answer = ask(lib, 'What does the Diamond Sutra say about electricity?');
    expect(answer.abstention?.reason).toBe('NO_EVIDENCE');
  });
});
