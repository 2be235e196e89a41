import MiniSearch from 'minisearch';
import type { Knowledge } from './packs.js';
import type { Concept, Passage, Situation, Tradition } from './model.js';
import { normalize, STOP, terms } from './text.js';

export interface RetrievalScope {
  /** Pack ids to search; undefined means every pack. */
  packIds?: string[];
  traditions?: Tradition[];
}

export interface Hit {
  passage: Passage;
  /** Engine score (BM25 with field boosts). */
  score: number;
  /** Share of the query's distinct terms found in the passage, in [0, 1]. */
  coverage: number;
  /** Concepts named in the query that this passage is linked to. */
  conceptIds: string[];
}

interface IndexedPassage {
  id: string;
  zh: string;
  en: string;
  /** Statements of the curated claims bound to the passage: modern wording of what it says. */
  claims: string;
  concepts: string;
}

const TRADITION_NAMES: Record<string, Tradition> = {
  daoist: 'daoist', daoism: 'daoist', taoist: 'daoist', taoism: 'daoist', 道家: 'daoist', 道: 'daoist',
  confucian: 'confucian', confucianism: 'confucian', 儒家: 'confucian', 儒: 'confucian',
  buddhist: 'buddhist', buddhism: 'buddhist', 佛家: 'buddhist', 佛教: 'buddhist', 佛: 'buddhist',
  yangming: 'yangming', 阳明: 'yangming', 心学: 'yangming', 心: 'yangming',
};

/**
 * Everyday words in which a one-character concept name is not that concept (意 in 意思, 道 in
 * 知道, 和 as "and"): a one-character name inside one of these is not a mention.
 */
const ORDINARY_WORDS = new Set(
  '意思 知道 道理 味道 道歉 时候 时间 小时 有时 当时 同时 平时 常常 非常 经常 通常 正常 日常 明白 明天 说明 聪明 证明 明显 信息 短信 微信 理解 处理 管理 道德 容易 反正 反而 反对 相反 命令 生命 拼命 业务 作业 毕业 就业 行业 事业 专业 企业 学校 同学 大学 上学 放学 空间 空调 有空 天空 空气 孝顺 礼物 礼拜 仁慈 义务 意义 主义 定义 忠实 勇敢 谦虚 改革 皮革 和平 温和 暖和 在意 意见 同意 注意 满意 意外 生意 故意 愿意 主意 光明 明星 文明 发明 清明 信任 自信 相信 理由 理想 合理 道路 报道 频道'.split(' '),
);

function ordinaryWordAt(n: string, at: number): boolean {
  return ORDINARY_WORDS.has(n.slice(at - 1, at + 1)) || ORDINARY_WORDS.has(n.slice(at, at + 2));
}

const CLASSIC_TITLES = /道德经|金刚经|金刚般若波罗蜜经|论语|易经|周易|传习录|王阳明|阳明|老子|孔子|夫子|佛陀|daodejing|tao te ching|diamond sutra|analects|i ching|yijing|book of changes|chuanxilu|wang yangming|yangming|laozi|confucius|buddha/g;

export const traditionByName = (name: string): Tradition | undefined => TRADITION_NAMES[normalize(name)];

/**
 * Passage retrieval used by every classics feature. The index holds, per passage, the original
 * text, its English rendering, and the names and aliases of the concepts linked to it (boosted),
 * all as the same terms: Han unigrams+bigrams of normalised text and stemmed English words.
 */
export class Retrieval {
  /** The passage index: built by warm() in slices after start, or at the first search that needs it. */
  private index: MiniSearch<IndexedPassage> | undefined;
  private warming: Promise<void> | undefined;
  private readonly documents: IndexedPassage[];
  /** Each passage's terms (text, English, claim statements) and how many passages have each term; built with the index. */
  private termStats: { byPassage: Map<string, Set<string>>; documentFrequency: Map<string, number> } | undefined;
  private readonly conceptsByPassage = new Map<string, Set<string>>();
  private readonly aliasIndex: { alias: string; conceptId: string; cjk: boolean }[] = [];
  private readonly situationIndex: MiniSearch<{ id: string; text: string }>;
  private readonly situationTerms = new Map<string, Set<string>>();

  constructor(private readonly k: Knowledge) {
    for (const concept of k.concepts) {
      for (const name of conceptNames(concept)) {
        const alias = normalize(name).trim();
        const cjk = /\p{Script=Han}/u.test(alias);
        // An English alias that is an everyday word ("will", "way") is not a mention of the concept.
        if (cjk || (alias.length >= 3 && !STOP.has(alias))) aliasIndex(this.aliasIndex, alias, concept.id);
      }
      for (const locator of concept.key_locators) {
        const passage = k.passageByLocator.get(locator);
        if (passage) this.link(passage.id, concept.id);
      }
    }
    for (const claim of k.claims) {
      for (const conceptId of claim.concept_ids ?? []) for (const e of claim.evidence) this.link(e.passage_id, conceptId);
    }
    for (const situation of k.situations) {
      for (const view of Object.values(situation.perspectives)) {
        for (const passageId of view?.passage_ids ?? []) for (const conceptId of situation.concept_ids ?? []) this.link(passageId, conceptId);
      }
    }
    this.aliasIndex.sort((a, b) => b.alias.length - a.alias.length);

    this.documents = k.passages.map((p) => ({
      id: p.id,
      zh: p.text,
      en: p.en ?? '',
      claims: (k.claimsByPassage.get(p.id) ?? []).map((c) => `${c.statement_zh}\n${c.statement_en}`).join('\n'),
      concepts: [...(this.conceptsByPassage.get(p.id) ?? [])]
        .map((id) => k.conceptById.get(id))
        .flatMap((c) => (c ? conceptNames(c) : []))
        .join(' \n '),
    }));
    this.situationIndex = new MiniSearch<{ id: string; text: string }>({
      fields: ['text'],
      storeFields: [],
      tokenize: (text) => terms(text),
      processTerm: (term) => term,
    });
    this.situationIndex.addAll(
      k.situations.map((sit) => {
        const text = [sit.title_zh, sit.title_en, sit.tension_zh, sit.tension_en, ...sit.phrasings_zh, ...sit.phrasings_en].join('\n');
        const n = normalize(text);
        const synonymTerms = k.synonyms.filter((g) => g.some((w) => (/\p{Script=Han}/u.test(w) ? n.includes(w) : new RegExp(`\\b${w}\\b`).test(n)))).map((g) => `syn:${g[0]}`);
        this.situationTerms.set(sit.id, new Set([...terms(text), ...synonymTerms]));
        return { id: sit.id, text };
      }),
    );
  }

  private stats() {
    if (!this.termStats) {
      const byPassage = new Map<string, Set<string>>();
      const documentFrequency = new Map<string, number>();
      for (const p of this.k.passages) {
        const claimText = (this.k.claimsByPassage.get(p.id) ?? []).map((c) => `${c.statement_zh}\n${c.statement_en}`).join('\n');
        const own = new Set(terms(`${p.text}\n${p.en ?? ''}\n${claimText}`));
        byPassage.set(p.id, own);
        for (const t of own) documentFrequency.set(t, (documentFrequency.get(t) ?? 0) + 1);
      }
      this.termStats = { byPassage, documentFrequency };
    }
    return this.termStats;
  }

  private link(passageId: string, conceptId: string) {
    const set = this.conceptsByPassage.get(passageId) ?? new Set<string>();
    set.add(conceptId);
    this.conceptsByPassage.set(passageId, set);
  }

  /** Concepts whose name or alias appears in the text (longest names first, no overlaps). */
  detectConcepts(text: string): Concept[] {
    // The title of a classic is not a concept mention (金刚 in 金刚经, "diamond" in Diamond Sutra).
    const n = ` ${normalize(text).replace(CLASSIC_TITLES, (m) => ' '.repeat(m.length))} `;
    const found: string[] = [];
    const taken: [number, number][] = [];
    for (const { alias, conceptId, cjk } of this.aliasIndex) {
      let from = 0;
      for (;;) {
        const at = n.indexOf(alias, from);
        if (at < 0) break;
        from = at + 1;
        const end = at + alias.length;
        if (!cjk && (/[a-z0-9]/.test(n[at - 1] ?? ' ') || /[a-z0-9]/.test(n[end] ?? ' '))) continue;
        if (cjk && alias.length === 1 && (alias === '和' || ordinaryWordAt(n, at))) continue;
        // Overlapping names are one mention; the same name may still name several concepts
        // (格物 as Zhu Xi and as Wang Yangming read it).
        if (taken.some(([s, e]) => at < e && end > s && !(s === at && e === end))) continue;
        taken.push([at, end]);
        if (!found.includes(conceptId)) found.push(conceptId);
        break;
      }
    }
    return found.map((id) => this.k.conceptById.get(id)!).filter(Boolean);
  }

  private newIndex(): MiniSearch<IndexedPassage> {
    return new MiniSearch<IndexedPassage>({
      fields: ['zh', 'en', 'claims', 'concepts'],
      storeFields: [],
      tokenize: (text) => terms(text),
      processTerm: (term) => term,
      searchOptions: { boost: { concepts: 2.5, zh: 1.2, en: 1, claims: 0.8 }, combineWith: 'OR' },
    });
  }

  /**
   * Builds the passage index in small slices, yielding to the event loop between them, so that a
   * starting server answers (and reports ready) while it builds. A search that comes first builds
   * the index at once instead and this build is dropped.
   */
  warm(): Promise<void> {
    if (this.index) return Promise.resolve();
    if (!this.warming) {
      const index = this.newIndex();
      this.warming = index.addAllAsync(this.documents, { chunkSize: 20 }).then(() => {
        this.index ??= index;
        this.stats();
      });
    }
    return this.warming;
  }

  private passageIndex(): MiniSearch<IndexedPassage> {
    if (!this.index) {
      const index = this.newIndex();
      index.addAll(this.documents);
      this.index = index;
    }
    return this.index;
  }

  /**
   * Life situations the text describes, by how people phrase them: each with the share of the
   * text's (rarity-weighted) terms that its phrasings, title and tension contain.
   */
  matchSituations(text: string, limit = 3, contentTerms?: string[]): { situation: Situation; coverage: number }[] {
    const base = contentTerms ?? [...new Set(terms(text))];
    // Each word also counts as matched when a synonym of it is in the situation (dad ~ father ~ 爸).
    const n = normalize(text);
    const groups = this.k.synonyms.filter((g) => g.some((w) => (/\p{Script=Han}/u.test(w) ? n.includes(w) : new RegExp(`\\b${w}\\b`).test(n))));
    const queryTerms = [...new Set([...base, ...groups.map((g) => `syn:${g[0]}`)])];
    if (!queryTerms.length) return [];
    const weights = queryTerms.map((t) => (t.startsWith('syn:') ? 3 : this.idf(t)));
    const total = weights.reduce((a, b) => a + b, 0);
    return this.situationIndex
      .search(`${text} ${groups.flat().join(' ')}`)
      .slice(0, 20)
      .map((r) => {
        const own = this.situationTerms.get(r.id as string)!;
        const coverage = queryTerms.reduce((sum, t, i) => sum + (own.has(t) ? weights[i]! : 0), 0) / (total || 1);

        return { situation: this.k.situationById.get(r.id as string)!, coverage, score: r.score };
      })
      .sort((a, b) => b.coverage - a.coverage || b.score - a.score || a.situation.id.localeCompare(b.situation.id))
      .slice(0, limit)
      .map(({ situation, coverage }) => ({ situation, coverage }));
  }

  /** Inverse document frequency: rare terms weigh more; a term no passage has weighs most. */
  idf(term: string): number {
    const { byPassage, documentFrequency } = this.stats();
    return Math.log((byPassage.size + 1) / ((documentFrequency.get(term) ?? 0) + 1));
  }

  /** The terms a passage is indexed under (its text, English rendering and claim statements). */
  termsOf(passageId: string): Set<string> {
    return this.stats().byPassage.get(passageId) ?? new Set();
  }

  conceptsOf(passageId: string): string[] {
    return [...(this.conceptsByPassage.get(passageId) ?? [])];
  }

  search(query: string, scope: RetrievalScope = {}, limit = 20): Hit[] {
    const concepts = this.detectConcepts(query);
    // Concept names in the query also search under their other names (wu wei -> 无为).
    const expansion = concepts.flatMap((c) => [c.zh, c.en]).join(' ');
    const queryTerms = [...new Set(terms(`${query} ${concepts.map((c) => c.zh).join(' ')}`))];
    if (!queryTerms.length && !expansion) return [];
    const conceptIds = new Set(concepts.map((c) => c.id));
    const results = this.passageIndex().search(`${query} ${expansion}`, {
      filter: (r) => {
        const p = this.k.passageById.get(r.id as string);
        if (!p) return false;
        if (scope.packIds && !scope.packIds.includes(p.packId)) return false;
        if (scope.traditions && !scope.traditions.includes(p.tradition)) return false;
        return true;
      },
    });
    const phrase = normalize(query).replace(/[^\p{Script=Han}]/gu, '');
    // The Han names of the concepts the question names count as its own words (wu wei -> 无为).
    const names = concepts.map((c) => normalize(c.zh)).filter((name) => Array.from(name).length >= 2);
    const top = results[0]?.score ?? 1;
    const ranked = results.slice(0, Math.max(limit * 4, 60)).map((r) => {
      const passage = this.k.passageById.get(r.id as string)!;
      const own = this.stats().byPassage.get(passage.id)!;
      const matched = queryTerms.filter((t) => own.has(t)).length;
      const coverage = queryTerms.length ? matched / queryTerms.length : 0;
      const linked = this.conceptsOf(passage.id).filter((id) => conceptIds.has(id));
      // The passage's own words decide first (share of the query's terms, and the exact phrase);
      // the engine's score, which also counts linked concept names, orders the rest.
      const text = normalize(passage.text);
      // The question's own phrase outranks the name of a concept it mentions.
      const exact = Array.from(phrase).length >= 2 && text.includes(phrase) ? 1.5 : names.some((name) => text.includes(name)) ? 1 : 0;
      return { hit: { passage, score: r.score, coverage, conceptIds: linked }, rank: exact + coverage * 2 + r.score / top };
    });
    ranked.sort((a, b) => b.rank - a.rank || a.hit.passage.id.localeCompare(b.hit.passage.id));
    const hits = ranked.map((r) => r.hit);
    return hits.slice(0, limit);
  }
}

function conceptNames(c: Concept): string[] {
  return [c.zh, c.zh_traditional, c.pinyin, c.pinyin_plain, c.en, ...c.aliases].filter((s) => s && s.trim());
}

function aliasIndex(list: { alias: string; conceptId: string; cjk: boolean }[], alias: string, conceptId: string) {
  if (!list.some((e) => e.alias === alias && e.conceptId === conceptId)) list.push({ alias, conceptId, cjk: /\p{Script=Han}/u.test(alias) });
}
