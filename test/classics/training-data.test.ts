import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerabilityExamples, examplesDigest, gateExamples, precedentExamples } from '../../scripts/training-data.js';

/** A core folder and an eval folder holding two sets of each kind. */
function fixtureDirs() {
  const core = mkdtempSync(join(tmpdir(), 'core-'));
  const evalDir = mkdtempSync(join(tmpdir(), 'eval-'));
  writeFileSync(join(core, 'gate-fixtures.json'), JSON.stringify([{ text: 'cast for me', expect: 'block', category: 'divination' }]));
  writeFileSync(join(core, 'situations.json'), JSON.stringify([{ phrasings_zh: ['我很累'], phrasings_en: ['I am tired'], tension_zh: '累', tension_en: 'tired' }]));
  writeFileSync(join(evalDir, 'gate-heldout.json'), JSON.stringify([{ text: 'set one', expect: 'block', category: 'off_topic' }]));
  writeFileSync(join(evalDir, 'gate-heldout-2.json'), JSON.stringify([{ text: 'set two', expect: 'allow', category: 'medical' }]));
  writeFileSync(join(evalDir, 'questions.json'), JSON.stringify([{ question: 'q one', answerable: true, kind: 'textual', expected_locators: ['Daodejing 8', 'Yijing 15'] }]));
  writeFileSync(join(evalDir, 'questions-heldout-2.json'), JSON.stringify([{ question: 'q two', answerable: false, kind: 'false_premise' }]));
  return { core, evalDir };
}

describe('training data', () => {
  it('takes the Gate sets and question sets only up to the numbers given, with old category names mapped', () => {
    const { core, evalDir } = fixtureDirs();
    const upper = (t: string) => t.toUpperCase();
    expect(gateExamples(core, evalDir, 1, 1, upper)).toEqual([
      { text: 'CAST FOR ME', label: 'divination' },
      { text: 'SET ONE', label: 'out_of_scope' },
      ...['我很累', 'I AM TIRED', '累', 'TIRED'].map((text) => ({ text, label: 'allow' })),
      { text: 'Q ONE', label: 'allow' },
    ]);
    expect(gateExamples(core, evalDir, 2, 2, upper).map((e) => e.text)).toContain('SET TWO');
  });

  it('labels questions by kind, adds what the packs hold as answerable, and maps a whole hexagram to its judgment', () => {
    const { evalDir } = fixtureDirs();
    const passage = { id: 'ddj.8', locator: 'Daodejing 8', packId: 'daodejing', text: '上善若水。水善利万物', en: 'The highest good is like water. Water benefits all.' };
    const k = { passages: [passage], concepts: [], situations: [], passageByLocator: new Map([['Daodejing 8', passage]]) } as never;
    const examples = answerabilityExamples(evalDir, 2, k);
    expect(examples).toEqual(expect.arrayContaining([{ text: 'q one', label: 'answerable' }, { text: 'q two', label: 'false_premise' }, { text: '上善若水。', label: 'answerable' }, { text: 'The highest good is like water.', label: 'answerable' }]));
    expect(answerabilityExamples(evalDir, 1, k).map((e) => e.text)).not.toContain('q two');
    expect(precedentExamples(evalDir, 2, k)).toEqual([{ q: 'q one', p: ['ddj.8', 'yijing.15.judgment'] }]);
  });

  it('changes its digest when a label or text changes', () => {
    const base = [{ text: 'a', label: 'allow' }];
    expect(examplesDigest(base)).toBe(examplesDigest([{ text: 'a', label: 'allow' }]));
    expect(examplesDigest(base)).not.toBe(examplesDigest([{ text: 'a', label: 'crisis' }]));
    expect(examplesDigest(base)).not.toBe(examplesDigest([{ text: 'b', label: 'allow' }]));
  });
});
