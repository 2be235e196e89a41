import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePoints, loadKnowledge, packChecksum } from '../../src/classics/packs.js';
import { tempDir } from '../helpers.js';

const source = { id: 'src.mini', title: '小经', title_en: 'Mini', tradition: 'daoist', edition: 'test', source_grade: 'A', license: 'test' };

const passages = [
  { id: 'mini.1', locator: 'Mini 1', text: '上善若水。水善利万物而不争。', en: 'The highest good is like water.' },
  { id: 'mini.2', locator: 'Mini 2', text: '知人者智，自知者明。', en: 'Knowing others is wisdom.' },
];

const claim = (over: Record<string, unknown> = {}) => ({
  id: 'claim.mini.1',
  statement_zh: '水善利万物。',
  statement_en: 'Water benefits all things.',
  claim_type: 'TEXT',
  trust_level: 'T0',
  truth_boundary: 'direct',
  perspective: 'daoist',
  evidence: [{ passage_id: 'mini.1', quote: '水善利万物' }],
  ...over,
});

const perspective = (zh: string) => ({ passage_ids: ['mini.1'], zh, en: 'Water does good to all things without contending; a reader might hold ambition more lightly here.' });

/** Writes a one-pack classics tree with a matching release, applying `edit` to the files first. */
function fixture(edit: (files: Record<string, unknown>) => void = () => {}, afterRelease?: (packDir: string) => void) {
  const root = tempDir('packs-');
  const dir = join(root, 'mini');
  mkdirSync(dir, { recursive: true });
  const files: Record<string, unknown> = {
    'pack.json': { id: 'mini', version: '1.0.0', title: 'Mini', title_zh: '小', kind: 'classic', traditions: ['daoist'], description: 'test pack', sources: [source] },
    'passages.json': passages,
    'claims.json': [claim()],
    'situations.json': [
      {
        id: 'situation.test',
        title_zh: '测试',
        title_en: 'Test',
        domain: 'work',
        phrasings_zh: ['测试'],
        phrasings_en: ['test'],
        tension_zh: '张力',
        tension_en: 'tension',
        perspectives: { daoist: perspective('水善利万物而不争：与其争一时高下，不如看看自己能否像水一样滋养身边的人与事，这并不是退让，而是另一种有力量的方式。') },
      },
    ],
  };
  edit(files);
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(body));
  const names = Object.keys(files).sort();
  mkdirSync(join(root, 'releases'));
  writeFileSync(
    join(root, 'releases', 'r1.json'),
    JSON.stringify({ id: 'r1', status: 'released', createdAt: '2026-11-01T00:00:00Z', notes: '', packs: [{ id: 'mini', version: '1.0.0', sha256: packChecksum(dir, names) }], criticalItems: [] }),
  );
  afterRelease?.(dir);
  return loadKnowledge(root);
}

describe('pack check', () => {
  it('accepts a consistent pack', () => {
    const { errors, knowledge } = fixture();
    expect(errors).toEqual([]);
    expect(knowledge.passages).toHaveLength(2);
    expect(knowledge.currentRelease?.id).toBe('r1');
  });

  it('fails on a dangling id', () => {
    const { errors } = fixture((f) => (f['claims.json'] = [claim({ evidence: [{ passage_id: 'mini.9', quote: '水' }] })]));
    expect(errors).toContain('claim claim.mini.1: evidence passage mini.9 does not exist');
  });

  it('fails on a duplicate locator', () => {
    const { errors } = fixture((f) => (f['passages.json'] = [...passages, { ...passages[0], id: 'mini.3' }]));
    expect(errors).toContain('duplicate locator Mini 1');
  });

  it('fails on a T0-T3 claim without evidence, but not a T4 application', () => {
    expect(fixture((f) => (f['claims.json'] = [claim({ evidence: [] })])).errors).toContain('claim claim.mini.1: T0 claim without evidence');
    const applied = claim({ claim_type: 'ACTION', trust_level: 'T4', truth_boundary: 'applied', evidence: [] });
    expect(fixture((f) => (f['claims.json'] = [applied])).errors).toEqual([]);
  });

  it('fails on a quote that is not in its passage', () => {
    const { errors } = fixture((f) => (f['claims.json'] = [claim({ evidence: [{ passage_id: 'mini.1', quote: '上善若火' }] })]));
    expect(errors).toContain('claim claim.mini.1: quote "上善若火" is not in Mini 1');
  });

  it('fails on a trust level that does not match its claim type', () => {
    const { errors } = fixture((f) => (f['claims.json'] = [claim({ trust_level: 'T3' })]));
    expect(errors[0]).toMatch(/T3 needs claim_type INFERENCE and truth_boundary inferred/);
  });

  it('fails on a perspective outside 50-100 code points', () => {
    const { errors } = fixture((f) => {
      (f['situations.json'] as { perspectives: Record<string, unknown> }[])[0]!.perspectives.daoist = perspective('太短了。');
    });
    expect(errors.some((e) => /daoist perspective has 4 characters/.test(e))).toBe(true);
  });

  it('compiles the stories the classics do not record, and fails on a pattern that does not compile', () => {
    const story = (patterns: string[]) => [{ id: 'unrecorded.test', title_en: 'Test', patterns, note_zh: '没有记载。', note_en: 'Not recorded.' }];
    const good = fixture((f) => {
      f['unrecorded.json'] = story(['\\bmet confucius\\b']);
    });
    expect(good.errors).toEqual([]);
    expect(good.knowledge.unrecorded[0]!.matchers[0]!('laozi met confucius')).toBe(true);
    const bad = fixture((f) => {
      f['unrecorded.json'] = story(['(unclosed']);
    });
    expect(bad.errors.some((e) => /unrecorded story unrecorded\.test has a pattern that does not compile/.test(e))).toBe(true);
  });

  it('fails on any Gate pattern that does not compile, an aside or an anchor as much as a rule', () => {
    const rules = (edit: (r: Record<string, unknown>) => void) => {
      const r: Record<string, unknown> = { version: 't', aboutClassics: '论语', categories: { crisis: { message_en: 'Please call a crisis line.', message_zh: '请拨打心理援助热线。' } }, rules: [{ id: 'crisis.t', category: 'crisis', patterns: ['不想活'] }] };
      edit(r);
      return fixture((f) => (f['gate-rules.json'] = r)).errors;
    };
    expect(rules(() => {})).toEqual([]);
    // An escaped quote is fine in a JavaScript literal but not in a unicode-mode pattern.
    expect(rules((r) => (r.aside = ['asking [\\"“]'])).some((e) => /gate-rules\.json: aside\[0\]: bad pattern/.test(e))).toBe(true);
    expect(rules((r) => (r.anchors = ['(unclosed'])).some((e) => /anchors\[0\]: bad pattern/.test(e))).toBe(true);
    expect(rules((r) => (r.rules = [{ id: 'crisis.t', category: 'crisis', patterns: ['[z-a]'] }])).some((e) => /rule crisis\.t: bad pattern/.test(e))).toBe(true);
  });

  it('fails when a pack no longer matches its release checksum', () => {
    const { errors } = fixture(undefined, (dir) => writeFileSync(join(dir, 'passages.json'), JSON.stringify([passages[0]])));
    expect(errors).toContain('release r1: pack mini checksum differs from the release (run npm run packs:release)');
  });
});

describe('codePoints', () => {
  it('counts code points as Array.from does: pairs as one, lone surrogates as one each', () => {
    expect(['', '上善若水', '😀a😀', '\ud83d', '\ude00x', 'a\ud83d\ud83d\ude00'].map(codePoints)).toEqual([0, 4, 3, 1, 2, 3]);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => codePoints(text) === Array.from(text).length), { numRuns: 2000, seed: 7 });
  });
});
