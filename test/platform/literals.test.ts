import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { patternsOf, type GateRules } from '../../src/gate/gate.js';
import { normalize } from '../../src/classics/text.js';
import { Prefilter, requiredLiterals } from '../../src/platform/literals.js';

describe('requiredLiterals', () => {
  it.each([
    ['药(?:也|都|已经)?攒(?:得|够)', ['药攒得', '药攒够', '药也攒得', '药也攒够', '药都攒得', '药都攒够', '药已经攒得', '药已经攒够']],
    ['\\bwho wins\\b', ['who wins']],
    // The longer of the two runs around the gap is the more selective.
    ['(?:楼顶|天台)[^。？！?]{0,12}离(?:边上|边缘|边)', ['离边']],
    ['(?:楼顶|天台)[^。？！?]{0,12}(?:离|近)', ['天台', '楼顶']],
    ['foo|bar', ['bar', 'foo']],
    ['colou?r', ['color', 'colour']],
    ['(?<!要)不要', ['不要']],
    ['a[bc]d', ['abd', 'acd']],
    ['x{2}y', ['xxy']],
    ['(?:ab)+c', ['ab']],
    // Not xy: the a's may come between.
    ['xa*y', ['x']],
  ])('finds what every match of %s contains', (source, expected) => {
    expect(requiredLiterals(source, 'u')?.sort()).toEqual([...expected].sort());
  });

  it.each([
    ['\\w+', 'u'],
    ['.*', 'u'],
    ['a?', 'u'],
    ['foo|\\d', 'u'],
    ['[a-z]{3}', 'u'],
    ['(\\w)\\1', 'u'],
    ['foo', 'i'],
    ['(?!foo)', 'u'],
    ['(', 'u'],
  ])('asks for nothing where it cannot be sure: /%s/%s', (source, flags) => {
    expect(requiredLiterals(source, flags)).toBeUndefined();
  });

  it('gives up sets larger than asked for', () => {
    const many = Array.from({ length: 40 }, (_, i) => `w${i}x`).join('|');
    expect(requiredLiterals(many, 'u', 16)).toBeUndefined();
    expect(requiredLiterals(many, 'u')).toHaveLength(40);
  });
});

describe('Prefilter', () => {
  it('refuses a global expression for test, whose test keeps state', () => {
    expect(() => new Prefilter().test(/a/g)).toThrow(/global/);
  });

  it('answers every pattern registered, whether before or after a text was scanned', () => {
    const prefilter = new Prefilter();
    const first = prefilter.test(/foo/u);
    expect(first('a foo')).toBe(true);
    const second = prefilter.test(/bar/u);
    expect(second('a foo')).toBe(false);
    expect(second('a bar')).toBe(true);
    expect(first('a bar')).toBe(false);
    expect(prefilter.may(/b(?:a|o)z/gu)('a boz')).toBe(true);
    expect(prefilter.may(/b(?:a|o)z/gu)('a biz')).toBe(false);
  });

  it('finds one-unit strings, strings at the very end and strings outside the BMP', () => {
    const prefilter = new Prefilter();
    const han = prefilter.test(/药/u);
    const tail = prefilter.test(/end$/u);
    const emoji = prefilter.test(/😀x/u);
    expect([han('吃药'), tail('the end'), emoji('a😀x')]).toEqual([true, true, true]);
    expect([han('吃饭'), tail('the en'), emoji('a😀')]).toEqual([false, false, false]);
  });
});

/** Random patterns over a small alphabet, so that random texts often match them. */
const atom = fc.oneof(
  fc.constantFrom('a', 'b', 'c', '中', '文', '\\b', '.', '\\w', '[ab]', '[^a]', '[a-c]', '(?=a)', '(?!b)', '(?<=c)', '(?<!a)', '^', '$'),
);
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => a + b),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(?:${a}|${b})`),
    fc.tuple(tie('node'), fc.constantFrom('?', '*', '+', '{2}', '{0,3}', '{1,2}', '??')).map(([a, q]) => `(?:${a})${q}`),
    tie('node').map((a) => `(${a})`),
  ),
})).node;
const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '中', '文', ' '), maxLength: 12 });

describe('prefilteredTest', () => {
  it('never misses a match the expression finds (random patterns and texts)', () => {
    let filtered = 0;
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 20 }), (source, texts) => {
        const re = new RegExp(source, 'u');
        const test = new Prefilter().test(re);
        if (requiredLiterals(source, 'u')) filtered++;
        for (const t of texts) expect(test(t)).toBe(re.test(t));
      }),
      { numRuns: 3000, seed: 20261201 },
    );
    // The property means something only if many of the patterns have strings to look for.
    expect(filtered).toBeGreaterThan(600);
  });

  it("agrees with every Gate pattern on every evaluation and fixture text", () => {
    const rules = JSON.parse(readFileSync('packs/classics/core/gate-rules.json', 'utf8')) as GateRules;
    const fixtures = JSON.parse(readFileSync('packs/classics/core/gate-fixtures.json', 'utf8')) as { text: string }[];
    const texts = new Set(fixtures.map((f) => normalize(f.text)));
    for (const file of readdirSync('test/eval').filter((f) => /^gate-heldout.*\.json$/.test(f))) {
      const data = JSON.parse(readFileSync(`test/eval/${file}`, 'utf8')) as { text: string }[] | { cases: { text: string }[] };
      for (const c of Array.isArray(data) ? data : data.cases) texts.add(normalize(c.text));
    }
    // One prefilter for all, as the Gate has: each text is scanned once for every pattern's strings.
    const prefilter = new Prefilter();
    const patterns = patternsOf(rules).map(({ pattern: source }) => ({ re: new RegExp(source, 'u'), test: prefilter.test(new RegExp(source, 'u')) }));
    let filtered = 0;
    for (const { re } of patterns) if (requiredLiterals(re.source, 'u')) filtered++;
    for (const t of texts) for (const { re, test } of patterns) if (test(t) !== re.test(t)) throw new Error(`/${re.source}/ on ${t}`);
    // Most patterns have strings to look for first.
    expect(filtered).toBeGreaterThan(patterns.length * 0.9);
  });
});
