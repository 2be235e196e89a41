import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { openLibrary, type Library } from '../../src/classics/library.js';
import { kthLargest, Retrieval } from '../../src/classics/retrieval.js';
import { QuestionMatcher, QuoteMatcher } from '../../src/classics/tq/evidence.js';
import { cjkGrams, englishTerms, normalize, pinyinSyllables, questionTerms, terms } from '../../src/classics/text.js';

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

describe('contractions typed without the apostrophe', () => {
  it('are read as typed with it, not as words no passage has', () => {
    expect(englishTerms(normalize('i cant sleep and isnt it normal'))).toEqual(englishTerms(normalize("i can't sleep and isn't it normal")));
    expect(englishTerms(normalize('im tired, thats all'))).toEqual(englishTerms(normalize("i'm tired, that's all")));
    expect(englishTerms(normalize('i cant sleep'))).toEqual(['not', 'sleep']);
  });
});

describe('kthLargest', () => {
  it('finds the k-th largest of values with many ties, as a full sort does', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let round = 0; round < 2_000; round++) {
      const n = 1 + Math.floor(next() * 200);
      // Few distinct values in some rounds (ties everywhere), many in others.
      const spread = round % 3 === 0 ? 3 : 1_000;
      const values = Float64Array.from({ length: n }, () => Math.floor(next() * spread) / 7);
      const k = 1 + Math.floor(next() * n);
      const sorted = Float64Array.from(values).sort();
      expect(kthLargest(Float64Array.from(values), k)).toBe(sorted[n - k]);
    }
  });
});

describe('retrieval', () => {
  it('answers a search that arrives while the index is warming, as the warmed index does', async () => {
    const cold = new Retrieval(lib.knowledge, { textCacheEntries: 1 });
    const warming = cold.warm();
    const during = cold.search('上善若水', {}, 5);
    await warming;
    expect(during[0]?.passage.locator).toBe('Daodejing 8');
    expect(cold.search('上善若水', {}, 5)).toEqual(during);
    const warmed = new Retrieval(lib.knowledge);
    await warmed.warm();
    expect(warmed.search('上善若水', {}, 5)).toEqual(during);
  });

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

describe("a question's own words", () => {
  it('drops function words, particles and the seams at the edge of a known word', () => {
    const words = (q: string) => questionTerms(q, lib.retrieval.lexicon);
    // 颜回 is a known word (a synonym of 颜渊): 回死 is a seam and 死 stands alone.
    expect(words('颜回死的时候')).toEqual(expect.arrayContaining(['颜回', '死']));
    expect(words('颜回死的时候')).not.toContain('回死');
    // Modern adverbs (真正) and particles (的, 之) make no terms, nor do bigrams reaching into them.
    expect(words('真正明白的人')).toEqual(['明白', '人']);
    expect(words('颜回之死')).not.toContain('之死');
    // A lone character is a term of its own.
    expect(words('孔子说的“仁”是什么')).toContain('仁');
  });

  it('bridges a modern word and its classical synonyms as one unit', () => {
    const [unit] = lib.retrieval.queryUnits(['了解']);
    expect(unit!.alternatives).toEqual(expect.arrayContaining([['知'], ['understand']]));
    expect(lib.retrieval.carries('ddj.33', unit!)).toBe(true);
    // Words no synonym group holds stay units of their own.
    expect(lib.retrieval.queryUnits(['若水']).map((u) => u.label)).toEqual(['若水']);
  });

  it('reaches a passage through synonyms in either language', () => {
    // 后悔 ~ 悔 (侃多悔), 话多 ~ 多言 (多言数穷), object ~ remonstrate (几谏).
    expect(top('王阳明怎么看后悔？', 3)).toContain('Chuanxilu 106');
    expect(top('道德经怎么评价话多的人？', 3, { packIds: ['daodejing'] })).toContain('Daodejing 5');
    expect(top('Should a child object when parents are wrong?', 3, { packIds: ['analects'] })).toContain('Analects 4.18');
  });

  it("reaches a person's passages under another name", () => {
    // The Analects calls him 颜渊; people write 颜回.
    expect(top('颜回死的时候孔子是什么反应？', 5, { packIds: ['analects'] })).toEqual(expect.arrayContaining(['Analects 11.9', 'Analects 11.10']));
  });

  it('does not take everyday words for one-character concepts or capitalised aliases', () => {
    const ids = (q: string) => lib.retrieval.detectConcepts(q).map((c) => c.id);
    expect(ids('治理国家要注意什么')).not.toContain('concept.tianli');
    expect(ids('努力克服时该怎么办')).not.toContain('concept.shi-timeliness');
    expect(ids('王阳明引用这句话的用意')).not.toContain('concept.yi-intention');
    // "the one people hardly notice" is ordinary English; "the One" is the concept.
    expect(ids('Who is the one that Laozi praises?')).not.toContain('concept.baoyi');
    expect(ids('What is the One in the Daodejing?')).toContain('concept.baoyi');
    expect(ids('what is the one in the daodejing')).toContain('concept.baoyi');
  });
});

describe('English words', () => {
  it('reads contractions as their words and irregular forms as their base', () => {
    // "isn't" leaves no "isn", "don't" no "don"; "dying", "died" and "die" are one word.
    expect(englishTerms("honest speech isn't elegant")).toEqual(['honest', 'speech', 'not', 'eleg']);
    expect(englishTerms('what you don’t want')).not.toContain('don');
    expect(englishTerms('dying')).toEqual(englishTerms('die'));
    expect(englishTerms('died')).toEqual(englishTerms('die'));
    expect(englishTerms('taught')).toEqual(englishTerms('teach'));
    // Superlatives the stemmer leaves whole are their adjective: the wisest and the stupidest.
    expect(englishTerms('the wisest and the stupidest')).toEqual([...englishTerms('wise'), ...englishTerms('stupid')]);
  });

  it('drops inflected framing verbs ("the saying", "once said", "telling")', () => {
    expect(englishTerms('the saying he once told')).toEqual([]);
  });

  it('reads a modern thing named by everyday words as one word (social media, stock markets)', () => {
    expect(englishTerms('using social media responsibly')).toEqual(['us', 'socialmedia', 'respons']);
    expect(englishTerms('the stock markets and video-games')).toEqual(['stockmarket', 'videogam']);
    expect(englishTerms('social duty')).toEqual(['social', 'duti']);
  });
});

describe('modern questions', () => {
  const words = (q: string) => questionTerms(q, lib.retrieval.lexicon);

  it('cuts a modern question at the edges of everyday words, so a classical word stands alone', () => {
    // 喜欢 is a known word: 欢水 is a seam, and 水 a word of its own (知者乐水).
    expect(words('聪明的人喜欢水')).toEqual(expect.arrayContaining(['聪明', '喜欢', '水']));
    expect(words('聪明的人喜欢水')).not.toContain('欢水');
    // A conjunction joins two words, it makes none: 知和行 is 知 and 行.
    expect(words('知和行不能分开')).toEqual(expect.arrayContaining(['知', '行']));
    expect(words('知和行不能分开')).not.toContain('知和');
    // A known word with a conjunction stays a word.
    expect(words('和谐社会')).toContain('和谐');
    // So does a pronoun: 帮我看待无常 has no 帮我 and no 我看, but 无我 is a word.
    expect(words('帮我看待无常')).not.toEqual(expect.arrayContaining(['帮我']));
    expect(words('帮我看待无常')).not.toContain('我看');
    expect(words('金刚经讲无我')).toContain('无我');
  });

  it('joins a modern particle or adverb to no neighbour outside a known word (格了, 就乱, 都来夸)', () => {
    expect(words('竹子格了七天')).toContain('格');
    expect(words('竹子格了七天')).not.toContain('格了');
    expect(words('一到公司就乱了')).toContain('乱');
    expect(words('大家都来夸我')).toContain('夸');
    // Known words keep them: 了解, 未来, and 如来 the Tathagata.
    expect(words('了解自己')).toContain('了解');
    expect(words('担心未来')).toContain('未来');
    expect(words('如来是什么意思')).toContain('如来');
  });

  it('leaves a measure phrase out of the words (一笔钱 is 钱)', () => {
    expect(words('我捐了一笔钱')).toEqual(expect.arrayContaining(['捐', '钱']));
    expect(words('我捐了一笔钱')).not.toContain('笔钱');
  });

  it('does not take a concept name inside an everyday or technical word for the concept', () => {
    const ids = (q: string) => lib.retrieval.detectConcepts(q).map((c) => c.id);
    expect(ids('道德经里关于太空探索的论述')).not.toContain('concept.kong');
    expect(ids('推荐几款单反相机')).not.toContain('concept.fan');
    expect(ids('金刚经怎么讲空')).toContain('concept.kong');
    expect(ids('打坐时想把杂念清空')).not.toContain('concept.kong');
    // 好学 whose 学 opens 学生 is a good student, not the love of learning.
    expect(ids('同事劝我把时间留给好学生')).not.toContain('concept.xue');
    expect(ids('颜回好学，不迁怒')).toContain('concept.xue');
  });

  it('bridges paraphrases to the words of the translations', () => {
    // ruling a big country ~ governing a large state (国), frying ~ cooking (烹).
    expect(top('ruling a big country is like frying a small fish', 3)).toContain('Daodejing 60');
    // dawn ~ morning, nightfall ~ evening, dying ~ die.
    expect(top('grasp the Way at dawn and be fine dying by nightfall', 3, { packIds: ['analects'] })).toContain('Analects 4.8');
  });
});

describe('search scopes and situations', () => {
  it('gives each pack of a several-pack scope its share of the results', () => {
    const hits = lib.retrieval.search('How do the Daodejing and the Analects differ on learning?', { packIds: ['daodejing', 'analects'] }, 30);
    expect(hits.filter((h) => h.passage.packId === 'daodejing').length).toBeGreaterThanOrEqual(10);
    expect(hits.filter((h) => h.passage.packId === 'analects').length).toBeGreaterThanOrEqual(10);
  });

  it('tells how many of the words a situation shares', () => {
    // "car" alone is shared with "others buy houses and cars": one word, no situation.
    const [first] = lib.retrieval.matchSituations('How do I change the oil in my car?', 1);
    expect(first?.matched ?? 0).toBeLessThan(2);
  });

  it('keeps the terms of each sentence of a passage, its rendering and its claims', () => {
    const sentences = lib.retrieval.sentenceTerms('ddj.8');
    expect(sentences.some((s) => s.has('上善') && s.has('若水'))).toBe(true);
    expect(sentences.length).toBeGreaterThan(3);
  });

  it("keeps no sentence of a reader's application of a passage among them", () => {
    // Analects 7.19's applied claim speaks of "work one loves"; the passage and its rendering do not.
    const applied = lib.knowledge.claimsByPassage.get('lunyu.7.19')!.find((c) => c.truth_boundary === 'applied')!;
    expect(applied.statement_en).toMatch(/work one loves/);
    expect(lib.retrieval.sentenceTerms('lunyu.7.19').some((s) => s.has('work') && s.has('love'))).toBe(false);
  });
});

describe('set 4 tuning: words', () => {
  it('reads two-digit numbers as a translation writes them, and leaves locators alone', () => {
    expect(englishTerms('at 15 he set his heart on learning')).toContain(englishTerms('fifteen')[0]);
    expect(englishTerms('at 32')).toEqual(englishTerms('thirty two'));
    expect(englishTerms('analects 2.4')).toEqual(englishTerms('analects'));
  });

  it('stems virtuous with virtue', () => {
    expect(englishTerms('virtuous')).toEqual(englishTerms('virtue'));
  });

  it('does not read a mountain pass as passing away', () => {
    const labels = (q: string) => lib.retrieval.queryUnits(questionTerms(q, lib.retrieval.lexicon)).map((u) => u.label);
    expect(labels('the mountain pass')).not.toContain('syn:died');
    expect(labels('my father passed away')).toContain('syn:died');
  });
});

describe('set 12 tuning: words', () => {
  it('cuts joined pinyin into one syllable per character', () => {
    expect(pinyinSyllables('kanglongyouhui', 4)).toEqual(['kang', 'long', 'you', 'hui']);
    expect(pinyinSyllables('xian', 2)).toEqual(['xi', 'an']);
    expect(pinyinSyllables('xian', 1)).toEqual(['xian']);
    expect(pinyinSyllables('hello', 3)).toBeUndefined();
  });

  it('names a concept by its pinyin written syllable by syllable', () => {
    expect(lib.retrieval.detectConcepts('what does "kang long you hui" mean in the I Ching?').map((c) => c.zh)).toContain('亢龙有悔');
  });

  it('takes no term from the words a question uses to report what it heard', () => {
    const words = questionTerms('听说王阳明专门讲过怕鬼这事', lib.retrieval.lexicon);
    expect(words).toContain('怕鬼');
    for (const w of ['专门', '讲过', '这事']) expect(words).not.toContain(w);
  });
});

describe('set 15 tuning: words', () => {
  it('does not read "the current Secretary-General" as a river', () => {
    const labels = (q: string) => lib.retrieval.queryUnits(questionTerms(q, lib.retrieval.lexicon)).map((u) => u.label);
    expect(labels('Who is the current Secretary-General of the United Nations?')).not.toContain('syn:river');
    expect(labels('Confucius stood by the river watching it flow')).toContain('syn:river');
  });
});

describe('matching by postings', () => {
  // Every eval question, and for each the passages retrieval ranks highest: what a question
  // matcher reads from the term postings must be what it reads from the passage's own terms.
  const questions = () =>
    ['questions.json', 'questions-heldout-2.json'].flatMap((f) => (JSON.parse(readFileSync(`test/eval/${f}`, 'utf8')) as { question: string }[]).map((q) => q.question));

  it('scores a passage from the postings as from its own terms', () => {
    let compared = 0;
    let carrying = 0;
    for (const question of questions()) {
      const matcher = QuestionMatcher.of(question, lib.retrieval);
      for (const hit of lib.retrieval.search(question, {}, 30)) {
        const fromPostings = matcher.match(hit.passage.id);
        expect(fromPostings).toEqual(matcher.matchTerms(lib.retrieval.termsOf(hit.passage.id)));
        compared++;
        if (fromPostings.matched > 0) carrying++;
      }
    }
    expect(compared).toBeGreaterThan(3_000);
    expect(carrying).toBeGreaterThan(1_000);
    expect(QuestionMatcher.of('上善若水', lib.retrieval).match('no-such-passage')).toEqual({ coverage: 0, matched: 0 });
  });

  it('ranks search hits by the units each passage carries, as the passage-by-passage count does', () => {
    let checked = 0;
    // Questions naming no concept: search adds no concept names to their words.
    for (const question of questions().filter((q) => !lib.retrieval.detectConcepts(q).length).slice(0, 120)) {
      const units = lib.retrieval.queryUnits(questionTerms(question, lib.retrieval.lexicon));
      for (const hit of lib.retrieval.search(question, {}, 30)) {
        const carried = lib.retrieval.liveUnits(units).filter((u) => lib.retrieval.carries(hit.passage.id, u)).length;
        expect(hit.coverage).toBeCloseTo(units.length ? carried / units.length : 0, 12);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1_000);
  });

  it('decides whether a passage carries a quote with or without reading its sentences', () => {
    let decided = 0;
    for (const quote of ['上善若水', '上善若火', '己所不欲，勿施于人', 'the highest good is like water', '学而时习之，不亦说乎']) {
      const matcher = new QuoteMatcher(quote, lib.retrieval);
      for (const hit of lib.retrieval.search(quote, {}, 40)) {
        expect(matcher.carries(hit.passage.id)).toBe(matcher.carried(hit.passage.id) >= matcher.floor);
        if (matcher.carries(hit.passage.id)) decided++;
      }
    }
    expect(decided).toBeGreaterThan(3);
  });
});
