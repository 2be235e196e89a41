import { describe, expect, it } from 'vitest';
import { textFeatures } from '../../src/classics/classifier.js';
import { Precedents, PrecedentsFile, type PrecedentsData } from '../../src/classics/precedents.js';
import type { Passage } from '../../src/classics/model.js';

const passage = (id: string, packId: string): Passage => ({ id, packId, sourceId: 's', tradition: packId === 'analects' ? 'confucian' : 'daoist', locator: id, text: '' });
const byId = new Map(['ddj.44', 'ddj.9', 'lunyu.4.12', 'ddj.8'].map((id) => [id, passage(id, id.startsWith('ddj') ? 'daodejing' : 'analects')]));
const data: PrecedentsData = {
  format: 'precedents/1',
  trainedOn: { sources: ['test'], examples: 3, sha256: '0'.repeat(64) },
  neighbours: 2,
  minSimilarity: 0.2,
  minShare: 0.2,
  relevance: 0.9,
  questions: [
    { q: 'I lost half my savings in stocks and cannot stop checking the account', p: ['ddj.44', 'ddj.9'] },
    { q: 'lost a lot of money in the market and I keep checking my account', p: ['ddj.44', 'lunyu.4.12'] },
    { q: 'what does the daodejing say about water', p: ['ddj.8'] },
  ],
};

describe('precedents', () => {
  it('the file format holds its parameters', () => {
    expect(PrecedentsFile.safeParse(data).success).toBe(true);
    expect(PrecedentsFile.safeParse({ ...data, minShare: 0 }).success).toBe(false);
  });

  it('votes for the passages of the nearest precedents, by similarity, shares summing to one', () => {
    const suggestions = new Precedents(data, byId).suggest('my savings are gone after the stock market fell and I keep checking');
    expect(suggestions[0]!.passage.id).toBe('ddj.44');
    expect(suggestions.map((s) => s.passage.id)).not.toContain('ddj.8');
    expect(suggestions.reduce((sum, s) => sum + s.share, 0)).toBeCloseTo(1, 10);
  });

  it('keeps to the passages it is allowed, and suggests nothing for a question unlike every precedent', () => {
    const precedents = new Precedents(data, byId);
    const analectsOnly = precedents.suggest('lost money in the market, checking my account', (p) => p.packId === 'analects');
    expect(analectsOnly.map((s) => s.passage.id)).toEqual(['lunyu.4.12']);
    expect(precedents.suggest('zebra quantum violin')).toEqual([]);
  });

  it('finds the same nearest precedents as the full cosine sum, common words and all', () => {
    // Many precedents sharing a few common words (the pruned search stops walking their
    // postings) and each a few rarer ones, in English and in Chinese.
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
    const common = ['the', 'what', 'does', 'say', 'about', 'my', '的', '是', '我'];
    const rare = Array.from({ length: 60 }, (_, i) => `w${i}`).concat(Array.from('水德仁礼孝道心知行静争忧命'));
    const sentence = () => [...Array.from({ length: 3 + next(4) }, () => common[next(common.length)]), ...Array.from({ length: 1 + next(3) }, () => rare[next(rare.length)])].join(' ');
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const many: PrecedentsData = { ...data, neighbours: 5, minSimilarity: 0.2, questions: Array.from({ length: 400 }, () => ({ q: sentence(), p: [ids[next(6)]!, ids[next(6)]!].filter((id, i, all) => all.indexOf(id) === i) })) };
    const passages = new Map(ids.map((id) => [id, passage(id, 'daodejing')]));

    // The definition: cosine of TF-IDF vectors (idf = ln((n + 1) / (df + 1))), every precedent scored.
    const features = many.questions.map((x) => textFeatures(x.q));
    const df = new Map<string, number>();
    for (const f of features) for (const x of f) df.set(x, (df.get(x) ?? 0) + 1);
    const idf = (x: string) => Math.log((features.length + 1) / ((df.get(x) ?? 0) + 1));
    const unit = (f: string[]) => {
      const kept = f.filter((x) => df.has(x));
      const norm = Math.sqrt(kept.reduce((sum, x) => sum + idf(x) ** 2, 0)) || 1;
      return new Map(kept.map((x) => [x, idf(x) / norm]));
    };
    const vectors = features.map(unit);
    const expected = (question: string) => {
      const q = unit(textFeatures(question));
      const near = vectors
        .map((v, doc) => ({ doc, s: [...q].reduce((sum, [x, w]) => sum + w * (v.get(x) ?? 0), 0) }))
        .filter((x) => x.s >= many.minSimilarity)
        .sort((a, b) => b.s - a.s || a.doc - b.doc)
        .slice(0, many.neighbours);
      const votes = new Map<string, number>();
      for (const { doc, s } of near) for (const id of many.questions[doc]!.p) votes.set(id, (votes.get(id) ?? 0) + s / many.questions[doc]!.p.length);
      const total = near.reduce((sum, x) => sum + x.s, 0);
      return [...votes].map(([id, v]) => [id, v / total] as const).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    };

    const precedents = new Precedents(many, passages);
    let compared = 0;
    for (let i = 0; i < 60; i++) {
      const question = sentence();
      const want = expected(question);
      const got = precedents.suggest(question).map((s) => [s.passage.id, s.share] as const);
      expect(got.map(([id]) => id)).toEqual(want.map(([id]) => id));
      // The index keeps its weights in single precision.
      got.forEach(([, share], j) => expect(share).toBeCloseTo(want[j]![1], 6));
      if (want.length) compared++;
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('builds its index in slices when warmed, and a search that comes first gets the same answer', async () => {
    const many: PrecedentsData = { ...data, questions: Array.from({ length: 1200 }, (_, i) => data.questions[i % 3]!) };
    const question = 'my savings are gone after the stock market fell';
    const warmed = new Precedents(many, byId);
    // The event loop turns while the index is being built: a callback queued before it runs before it ends.
    let turned = false;
    setImmediate(() => (turned = true));
    await warmed.warm();
    expect(turned).toBe(true);
    const cold = new Precedents(many, byId);
    const warming = cold.warm();
    const during = cold.suggest(question);
    await warming;
    expect(during).toEqual(warmed.suggest(question));
    expect(during[0]!.passage.id).toBe('ddj.44');
  });
});
