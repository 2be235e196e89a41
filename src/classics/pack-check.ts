import { join } from 'node:path';
import { loadKnowledge } from './packs.js';

interface Target {
  label: string;
  actual: number;
  minimum: number;
}

/**
 * Validates packs/classics (every cross-reference, quote and perspective length, release
 * checksums) and reports the content counts against the targets the packs must meet.
 */
export function checkClassicsPacks(dir: string): { summary: string[]; errors: string[] } {
  const { knowledge: k, errors } = loadKnowledge(dir);
  const summary: string[] = [];
  const byPack = (packId: string) => k.passages.filter((p) => p.packId === packId);
  const english = (packId: string) => byPack(packId).filter((p) => p.en).length;
  const conceptsOf = (t: string) => k.concepts.filter((c) => c.tradition === t).length;
  const pairs = new Set<string>();
  for (const c of k.concepts) {
    for (const r of c.relations) if (r.type === 'non_equivalent') pairs.add([c.id, r.target].sort().join('|'));
  }
  const fixtures = (expect: string) => k.gateFixtures.filter((f) => f.expect === expect).length;
  const hexagrams = new Set(byPack('yijing').map((p) => p.hexagram)).size;
  const chuanxilu = byPack('chuanxilu');
  const topicCount = (topic: string) => chuanxilu.filter((p) => p.topics?.includes(topic)).length;

  const targets: Target[] = [
    { label: 'Daodejing chapters', actual: byPack('daodejing').length, minimum: 81 },
    { label: 'Daodejing English renderings', actual: english('daodejing'), minimum: 81 },
    { label: 'Analects passages', actual: byPack('analects').length, minimum: 500 },
    { label: 'Analects English renderings', actual: english('analects'), minimum: 512 },
    { label: 'Yijing hexagrams', actual: hexagrams, minimum: 64 },
    { label: 'Yijing passages (judgments, lines, Tuan, Image)', actual: byPack('yijing').length, minimum: 64 * 9 + 2 },
    { label: 'Yijing English renderings', actual: english('yijing'), minimum: 64 * 9 + 2 },
    { label: 'Diamond Sutra sections', actual: byPack('diamond-sutra').length, minimum: 32 },
    { label: 'Diamond Sutra English renderings', actual: english('diamond-sutra'), minimum: 32 },
    { label: 'Chuanxilu passages', actual: chuanxilu.length, minimum: 80 },
    { label: 'Chuanxilu English renderings', actual: chuanxilu.filter((p) => p.en).length, minimum: 80 },
    ...['心即理', '知行合一', '致良知', '事上磨练', '格物', '立志', '四句教'].map((topic) => ({ label: `Chuanxilu passages on ${topic}`, actual: topicCount(topic), minimum: 1 })),
    { label: 'concepts', actual: k.concepts.length, minimum: 150 },
    ...['daoist', 'confucian', 'buddhist', 'yangming'].map((t) => ({ label: `concepts (${t})`, actual: conceptsOf(t), minimum: 25 })),
    { label: 'non_equivalent concept pairs', actual: pairs.size, minimum: 40 },
    { label: 'claims', actual: k.claims.length, minimum: 500 },
    { label: 'conflicts', actual: k.conflicts.length, minimum: 20 },
    { label: 'conflicts (significant)', actual: k.conflicts.filter((c) => c.severity === 'significant').length, minimum: 1 },
    { label: 'conflicts (minor)', actual: k.conflicts.filter((c) => c.severity === 'minor').length, minimum: 1 },
    { label: 'misreadings', actual: k.misreadings.length, minimum: 40 },
    { label: 'situations', actual: k.situations.length, minimum: 80 },
    { label: 'reading paths', actual: k.paths.length, minimum: 20 },
    { label: 'products', actual: k.products.length, minimum: 5 },
    { label: 'Gate fixtures (must block)', actual: fixtures('block'), minimum: 120 },
    { label: 'Gate fixtures (must allow)', actual: fixtures('allow'), minimum: 120 },
  ];
  for (const t of targets) summary.push(`${t.actual >= t.minimum ? 'ok   ' : 'SHORT'} ${t.label}: ${t.actual} (target ${t.minimum})`);
  summary.push(`release: ${k.currentRelease?.id ?? 'none'}; packs: ${k.packs.map((p) => `${p.manifest.id}@${p.manifest.version}`).join(', ')}`);
  for (const t of targets.filter((x) => x.actual < x.minimum)) errors.push(`${t.label}: ${t.actual}, below the target ${t.minimum}`);
  return { summary, errors };
}

export const classicsDir = (packsDir: string) => join(packsDir, 'classics');
