import { describe, expect, it } from 'vitest';
import { ClassifierFile, TextClassifier, textFeatures, trainClassifier, type LabelledText } from '../../src/classics/classifier.js';

const meta = { purpose: 'test', threshold: 0.5, trainedOn: { sources: ['test'], examples: 1, sha256: '0'.repeat(64) } };

/** Requests to cast a reading against questions about the texts, in both languages. */
const examples: LabelledText[] = [
  ...['帮我起一卦看看运势', '给我算一卦吧', '请帮我算命', '起一卦看看我的婚姻', 'cast a hexagram for me', 'please cast my reading', 'cast the coins for my job', 'tell my fortune with a hexagram'].map((text) => ({ text, label: 'divination' })),
  ...['论语里的仁是什么意思', '道德经怎么讲水', '金刚经第一品讲什么', '王阳明怎么看知行', 'what does the analects say about ren', 'what is wu wei in the daodejing', 'explain the diamond sutra on emptiness', 'how does wang yangming read the heart'].map((text) => ({ text, label: 'allow' })),
];

describe('text features', () => {
  it('reads Han runs as one-, two- and three-character grams, never across a break, after normalising', () => {
    const features = textFeatures('無為，而治');
    expect(features).toEqual(expect.arrayContaining(['无', '为', '无为', '而治']));
    expect(features).not.toContain('为而');
    expect(textFeatures('無為')).toEqual(textFeatures('无为'));
  });

  it('reads Latin text as lower-case words and adjacent pairs', () => {
    expect(textFeatures('Cast A hexagram')).toEqual(expect.arrayContaining(['w:cast', 'w:a', 'w:hexagram', 'w:cast a', 'w:a hexagram']));
  });
});

describe('the trained classifier', () => {
  it('learns the classes and judges wordings it was not trained on', () => {
    const model = new TextClassifier(trainClassifier(examples, ['allow', 'divination'], meta, { epochs: 20, l2: 1e-4, learningRate: 0.3, minCount: 1, prune: 0, seed: 1 }));
    expect(model.predict('帮我起一卦，看看明年').best).toBe('divination');
    expect(model.predict('please cast a hexagram about my move').best).toBe('divination');
    expect(model.predict('论语怎么讲孝').best).toBe('allow');
    expect(model.predict('what does the daodejing say about water').best).toBe('allow');
    const p = model.predict('anything').probabilities;
    expect(p.allow! + p.divination!).toBeCloseTo(1, 10);
  });

  it('gives the same model for the same examples and options, and a file the schema accepts', () => {
    const a = trainClassifier(examples, ['allow', 'divination'], meta);
    const b = trainClassifier(examples, ['allow', 'divination'], meta);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(ClassifierFile.safeParse(a).success).toBe(true);
    expect(a.weights.every((row) => row.length % 2 === 0)).toBe(true);
  });

  it('refuses an example whose label is no class', () => {
    expect(() => trainClassifier([{ text: 'x', label: 'medical' }], ['allow', 'divination'], meta)).toThrow(/unknown label medical/);
  });

  it('rejects a model file whose parts do not fit together', () => {
    const model = trainClassifier(examples, ['allow', 'divination'], meta);
    const issues = (file: unknown) => (ClassifierFile.safeParse(file).error?.issues ?? []).map((i) => i.message).join('; ');
    expect(issues({ ...model, bias: [0] })).toMatch(/bias has 1 entries for 2 classes/);
    expect(issues({ ...model, weights: [[5, 0.1], ...model.weights.slice(1)] })).toMatch(/not a list of \(class index, weight\) pairs/);
    expect(issues({ ...model, classThresholds: { crisis: 0.2 } })).toMatch(/classThresholds names crisis/);
  });
});
