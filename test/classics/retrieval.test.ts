import { beforeAll, describe, expect, it } from 'vitest';
import { openLibrary, type Library } from '../../src/classics/library.js';
import { cjkGrams, normalize, terms } from '../../src/classics/text.js';

let lib: Library;
beforeAll(() => {
  lib = openLibrary('packs');
});

const top = (query: string, n = 5, scope = {}) => lib.retrieval.search(query, scope, n).map((h) => h.passage.locator);

describe('normalisation', () => {
  it('unifies traditional and simplified, folds full-width forms and pinyin tones', () => {
    expect(normalize('無為')).toBe('无为');
    expect(normalize('ＡＢＣ，')).toBe('abc,');
    expect(normalize('wúwéi')).toBe('wuwei');
  });

  it('indexes Han text as unigrams and bigrams, never as words', () => {
    expect(cjkGrams('道可道')).toEqual(['道', '道可', '可', '可道', '道']);
    expect(terms('非常道')).toContain('非常');
    expect(terms('非常道')).toContain('常道');
  });
});

describe('retrieval', () => {
  it('reaches Daodejing 8 from 上善若水, from "water" and from 水', () => {
    expect(top('上善若水', 1)).toEqual(['Daodejing 8']);
    expect(top('water', 3)).toContain('Daodejing 8');
    expect(top('水', 3)).toContain('Daodejing 8');
  });

  it('reaches the 无为 passages from traditional 無為', () => {
    const traditional = top('無為', 10);
    expect(traditional).toEqual(top('无为', 10));
    expect(traditional).toEqual(expect.arrayContaining(['Daodejing 3', 'Daodejing 48']));
  });

  it('reaches the Chuanxilu from "unity of knowledge and action"', () => {
    const hits = lib.retrieval.search('unity of knowledge and action', {}, 3);
    expect(hits[0]!.passage.packId).toBe('chuanxilu');
    expect(hits[0]!.conceptIds).toContain('concept.zhixing-heyi');
  });

  it('finds a passage from its opening words', () => {
    expect(top('吾十有五而志于学', 1)).toEqual(['Analects 2.4']);
    expect(top('应无所住而生其心', 1)).toEqual(['Diamond Sutra 10']);
  });

  it('scopes by pack and by tradition', () => {
    expect(lib.retrieval.search('水', { packIds: ['analects'] }, 10).every((h) => h.passage.packId === 'analects')).toBe(true);
    expect(lib.retrieval.search('心', { traditions: ['buddhist'] }, 10).every((h) => h.passage.tradition === 'buddhist')).toBe(true);
  });

  it('detects concepts named in any script', () => {
    const ids = (q: string) => lib.retrieval.detectConcepts(q).map((c) => c.id);
    expect(ids('is wu wei laziness?')).toContain('concept.wuwei');
    expect(ids('什么是無為')).toContain('concept.wuwei');
  });

  it('is deterministic', () => {
    expect(top('心', 20)).toEqual(top('心', 20));
  });
});
