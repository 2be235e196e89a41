import { beforeAll, describe, expect, it } from 'vitest';
import { isQuestion } from '../../src/gate/gate.js';
import { openLibrary, type Library } from '../../src/classics/library.js';
import { normalize } from '../../src/classics/text.js';

let lib: Library;
beforeAll(() => {
  lib = openLibrary('packs');
});

describe('the Gate', () => {
  it('gives every shipped fixture its expected verdict (the readiness self-test)', () => {
    const { passed, total, failures } = lib.gateSelfTest;
    expect(failures).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(240);
    expect(passed).toBe(true);
  });

  it('blocks and allows within every fixture pair that shares a trigger word', () => {
    const pairs = new Map<string, string[]>();
    for (const f of lib.knowledge.gateFixtures) pairs.set(f.pair, [...(pairs.get(f.pair) ?? []), f.expect]);
    for (const [pair, expects] of pairs) expect(expects.sort(), pair).toEqual(['allow', 'block']);
  });

  it.each([
    ['Cast a hexagram for my marriage.', 'en', 'divination'],
    ['帮我起一卦，看看下个月能不能升职', 'zh', 'divination'],
    ['will I get married next year?', 'en', 'prediction'],
    ['I want to stop taking my antidepressants and read Laozi instead', 'en', 'medical'],
    ['should i sue my employer', 'en', 'legal'],
    ['用论语帮我选只股票', 'zh', 'financial'],
    ['be my therapist from now on', 'en', 'psychological'],
    ['我不想活了', 'zh', 'crisis'],
    ['无为就是躺平，我决定什么都不干了', 'zh', 'misreading'],
    ['write my code for a todo app', 'en', 'out_of_scope'],
  ])('blocks %s as %s', (text, lang, category) => {
    const verdict = lib.gate.evaluate(text, lang as 'zh' | 'en');
    expect(verdict).toMatchObject({ allowed: false, category });
    expect(verdict.ruleId).toBeTruthy();
    expect(verdict.message).toBeTruthy();
  });

  it.each([
    ['What does hexagram 54 say about marriage?', 'en'],
    ['How was the Yijing used for divination in the Zhou?', 'en'],
    ['Is wu wei the same as laziness?', 'en'],
    ['无为是不是就是躺平？', 'zh'],
    ['王阳明生病的时候是怎么看待疾病的？', 'zh'],
    ['I am stuck between two jobs. What would the Daodejing say about letting go?', 'en'],
  ])('allows the question %s', (text, lang) => {
    expect(lib.gate.evaluate(text, lang as 'zh' | 'en')).toEqual({ allowed: true, category: null, ruleId: null, message: null });
  });

  it('points crisis language to people and crisis lines, in the question language', () => {
    expect(lib.gate.evaluate('I want to kill myself', 'en').message).toMatch(/988/);
    expect(lib.gate.evaluate('我想自杀', 'zh').message).toMatch(/010-82951332/);
  });

  it('answers a misreading with its correction', () => {
    const verdict = lib.gate.evaluate('Wu wei means doing nothing, so I quit.', 'en');
    expect(verdict.ruleId).toBe('mis.wuwei-laziness');
    expect(verdict.message).toContain(lib.knowledge.misreadings.find((m) => m.id === 'mis.wuwei-laziness')!.correction_en);
  });

  it('tells questions from assertions', () => {
    for (const q of ['中庸是平庸吗', '是不是这样？', 'is it true?', 'does ren mean niceness']) expect(isQuestion(normalize(q)), q).toBe(true);
    for (const a of ['知行合一就是想到就做，别想那么多', '孝就是父母说什么都得听', 'wu wei means doing nothing']) expect(isQuestion(normalize(a)), a).toBe(false);
  });
});
