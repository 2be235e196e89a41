import { describe, expect, it } from 'vitest';
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
});
