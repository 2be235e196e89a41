import { LRUCache } from 'lru-cache';
import { StringTrie } from '../platform/string-trie.js';
import { TextIndex, type TextIndexOptions } from '../platform/text-index.js';
import type { Knowledge } from './packs.js';
import type { Concept, Passage, Situation, Tradition } from './model.js';
import { analyseQuestion, cjkGrams, englishTerms, isCjk, isFunctionCharacter, type Lexicon, MODERN_WORDS, normalize, pinyinSyllables, questionTerms, STOP, terms, unquoteShort } from './text.js';

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

/** A unit carried by this many passages or fewer is rare enough to name them (see search). */
const RARE_UNIT = 3;

/**
 * One thing a question asks about, as retrieval and evidence match it: a single term, or a
 * synonym group (了解 ~ 知 ~ understand) that a passage carries when it has every term of any one
 * of the group's words.
 */
export interface QueryUnit {
  /** The term the question has, or syn:<first word of the group>. */
  label: string;
  /** Each way of carrying the unit: the terms of one word of the group. */
  alternatives: string[][];
  /** The terms of the question that the unit stands for. */
  covers: string[];
}

export interface IndexedPassage {
  id: string;
  zh: string;
  en: string;
  /** Statements of the curated claims bound to the passage: modern wording of what it says. */
  claims: string;
  concepts: string;
}

/** Passages indexed per turn of the event loop while the index builds in the background. */
const WARM_SLICE = 20;

const PASSAGE_FIELDS = ['zh', 'en', 'claims', 'concepts'] as const;
/** Field weights of the passage index: a linked concept's name says most, then the text, its translation, its claims. */
export const PASSAGE_BOOST = { concepts: 2.5, zh: 1.2, en: 1, claims: 0.8 };
/** How the passage index reads a passage (tests build a MiniSearch index the same way to compare). */
export const PASSAGE_INDEX: TextIndexOptions<IndexedPassage> = {
  fields: PASSAGE_FIELDS,
  extract: (doc, field) => doc[field as (typeof PASSAGE_FIELDS)[number]],
  id: (doc) => doc.id,
  tokenize: (text) => terms(text),
  scoreTable: true,
};

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
  ('意思 知道 道理 味道 道歉 时候 时间 小时 有时 当时 同时 平时 常常 非常 经常 通常 正常 日常 明白 明天 说明 聪明 证明 明显 信息 短信 微信 理解 处理 管理 道德 容易 反正 反而 反对 相反 命令 生命 拼命 业务 作业 毕业 就业 行业 事业 专业 企业 学校 同学 大学 上学 放学 空间 空调 有空 天空 空气 孝顺 礼物 礼拜 仁慈 义务 意义 主义 定义 忠实 勇敢 谦虚 改革 皮革 和平 温和 暖和 在意 意见 同意 注意 满意 意外 生意 故意 愿意 主意 光明 明星 文明 发明 清明 信任 自信 相信 理由 理想 合理 道路 报道 频道 ' +
    // Modern words holding 学, 理, 道, 德, 易, 常, 明, 反, 礼 as something else (科学, 真理, 难道, 德国).
    '科学 数学 哲学 文学 力学 学生 学者 学术 学期 学费 学历 留学 治理 真理 心理 物理 地理 理论 整理 经理 伦理 推理 理财 护理 修理 办理 清理 难道 渠道 轨道 通道 街道 德国 贸易 交易 常见 常识 异常 明年 明确 反应 反馈 反复 违反 婚礼 典礼 用意 ' +
    // Everyday and technical words around the other one-character names: 空 in 太空 (outer space),
    // 反 in 单反 (a camera), 业 in 创业, 命 in 革命, 信 in 信用卡, 易 in 轻易, 理 in 助理.
    '空落 空虚 空荡 太空 航空 空军 空白 空闲 空中 高空 真空 落空 时空 空姐 领空 空洞 空话 抽空 空手 清空 放空 腾空 空出 空着 空腹 ' +
    '单反 反感 造反 反抗 反击 反驳 反转 反弹 反差 反正 ' +
    '产业 商业 工业 农业 营业 职业 业余 创业 物业 失业 业绩 学业 家业 业主 副业 ' +
    '革命 命名 任命 要命 命中 玩命 致命 救命 人命 寿命 算命 ' +
    '信用 信号 书信 来信 写信 信封 信件 迷信 ' +
    '简易 不易 轻易 易于 ' +
    '理发 理会 代理 助理 总理 理性 原理 条理 理科 生理 受理 料理 打理 理睬 讲理 无理 有理 ' +
    '意识 意味 创意 好意 恶意 随意 意志 意愿 心意 乐意 中意 大意 特意 刻意 执意 意料 意向 示意 ' +
    '地道 霸道 公道 厚道 一道 车道 跑道 赛道 管道 隧道 称道 ' +
    '明朝 明代 明清 透明 简明 表明 声明 鲜明 精明 明亮 分明 明知 明明 ' +
    // 性 in 性格, 性别 and after the noun-making 性 of 可能性, 重要性 (seen two characters at a time).
    '性格 性别 性价 性质 性能 性感 感性 任性 耐性 性子 急性 慢性 性病 性欲 个性 女性 男性 两性 异性 同性 性爱 索性 弹性 惯性 线性 属性 特性 韧性 能性 要性 极性 全性 次性 ' +
    '平常 时常 往常 常规 常用 照常 家常 ' +
    '礼品 礼金 送礼 彩礼 礼堂 含义 名义 义工 讲义 广义 狭义 慈善 吝啬 ' +
    '学院 学位 学会 小学 中学 化学 医学 法学 学车 ' +
    // 直 as "all along", "directly", "simply" (一直, 直接, 简直) and in technical words (直播, 垂直).
    '一直 直接 简直 直到 直至 垂直 直播 直线 直升 径直 直观 直觉 直达 直销 直奔 直呼 笔直 伸直 直角 直系 直属 直辖 直流 直径 直男 直说'
  ).split(' '),
);

/**
 * One-character concept names that in a modern question are grammar far more often than the
 * concept (和 "and", 时 "when": 克服时): they name it only in a longer alias (和而不同, 与时偕行).
 */
const GRAMMATICAL = new Set(['和', '时']);

function ordinaryWordAt(n: string, at: number): boolean {
  return ORDINARY_WORDS.has(n.slice(at - 1, at + 1)) || ORDINARY_WORDS.has(n.slice(at, at + 2));
}

/** Where a sentence ends, in Han text and in English (a full stop before a space or the end). */
export const SENTENCE_END = /[。！？；!?;]|\.(?=\s|$)/u;

const CLASSIC_TITLES = /道德经|金刚经|金刚般若波罗蜜经|论语|易经|周易|传习录|王阳明|阳明|老子|孔子|夫子|佛陀|daodejing|tao te ching|diamond sutra|analects|lun ?yu|i ching|yijing|book of changes|chuanxilu|wang yangming|yangming|lao[ -]?(?:zi|tzu|tze|tse)|confucius|buddha/g;

interface AliasEntry {
  alias: string;
  conceptId: string;
  cjk: boolean;
  /** An alias that is a common phrase made a name by its capital (the One, the Way), as written. */
  proper?: string;
}

/**
 * "the One", "the Way": English aliases that are everyday phrases ("the one who", "the way to")
 * but for the capital. In a question that uses capitals at all, they name the concept only when
 * capitalised as in the alias.
 */
const PROPER_NAME = /^the [A-Z]/;

export const traditionByName = (name: string): Tradition | undefined => TRADITION_NAMES[normalize(name)];

export interface SituationMatch {
  situation: Situation;
  /** The rarity-weighted share of the text's terms the situation has. */
  coverage: number;
  /** How many of the text's terms it has. */
  matched: number;
}

/** A passage the engine found for a query, with its score and its position in the term statistics. */
interface Candidate {
  passage: Passage;
  score: number;
  ordinal: number;
}

/** The engine's results for one query text, before any scope; see Retrieval.search. */
interface EngineResult {
  /** The passages matched (by position), in the order the engine first matched them. */
  ordinals: number[];
  /** Their engine scores. */
  scores: number[];
  /** How many of the query's units each passage carries, by position (see carriedCounts). */
  carried: Uint16Array;
  /** The places in `ordinals` of each pack's passages, ascending: made at the first search scoped to packs. */
  byPack?: Map<string, number[]>;
}

/** A query as every search of it needs it, whatever the scope; see Retrieval.prepare. */
interface PreparedQuery {
  units: QueryUnit[];
  conceptIds: Set<string>;
  /** Undefined when the query has nothing to search with. */
  engine?: EngineResult;
  /** The query's Han characters, or '' when it has fewer than two. */
  phrase: string;
  names: string[];
  /** The passages (by position) of each English unit that few passages carry (see search); made at the first search. */
  rareOwners?: number[][];
}

/**
 * Passage retrieval used by every classics feature. The index holds, per passage, the original
 * text, its English rendering, and the names and aliases of the concepts linked to it (boosted),
 * all as the same terms: Han unigrams+bigrams of normalised text and stemmed English words.
 */
export class Retrieval {
  /** The passage index: built by warm() in slices after start, or at the first search that needs it. */
  private index: TextIndex | undefined;
  private warming: Promise<void> | undefined;
  private readonly documents: IndexedPassage[];
  /** Each passage's terms (text, English, claim statements) and how many passages have each term; built with the index. */
  private termStats:
    | {
        byPassage: Map<string, Set<string>>;
        documentFrequency: Map<string, number>;
        normalizedText: Map<string, string>;
        /** The same texts by passage position. */
        normalizedByOrdinal: string[];
        /** Each passage's position in the lists below. */
        ordinal: Map<string, number>;
        /** The positions of the passages that have each term, ascending. */
        postings: Map<string, Int32Array>;
        /** Each passage's terms, by position. */
        owns: Set<string>[];
      }
    | undefined;
  /**
   * Engine results per query text, before any scope: the engine scores every passage the same
   * whatever the scope, so illuminate's four per-tradition searches and a repeated question
   * share one search.
   */
  private readonly prepared: LRUCache<string, PreparedQuery>;
  private readonly conceptsFound: LRUCache<string, Concept[]>;
  private readonly situationsFound: LRUCache<string, SituationMatch[]>;
  /** How many texts each of the per-text caches keeps (see the constructor). */
  readonly textCacheEntries: number;
  private readonly sentences = new LRUCache<string, Set<string>[]>({ max: 2_048 });
  private readonly sentenceTexts = new LRUCache<string, string[]>({ max: 2_048 });
  private readonly conceptsByPassage = new Map<string, Set<string>>();
  /** The same links by passage position, each passage's in the order they were linked: made once the constructor has linked them all. */
  private readonly conceptsByOrdinal: string[][];
  /** See hanTextOf: filled as passages are asked for (a few thousand short strings at most). */
  private readonly hanTexts = new Map<string, string>();
  /** See idOrder. */
  private idPlaces: Uint32Array | undefined;
  private readonly aliasIndex: AliasEntry[] = [];
  /** Every alias, by its place in aliasIndex: one pass over a question finds all their occurrences. */
  private readonly aliasTrie = new StringTrie();
  /**
   * Situations by how people phrase them, scored as the passages are (BM25, MiniSearch's formula),
   * and each situation's terms: made at the first situation search, or by warm().
   */
  private situationsIndexed: { index: TextIndex; terms: Map<string, Set<string>> } | undefined;
  /** Words of two or more Han characters a question is cut at: synonyms and concept names. */
  readonly lexicon: Lexicon = { words: new Set(), longest: 0, starts: new Set() };
  /**
   * The synonym groups (packs/classics/core/synonyms.json) as terms: each word of a group as the
   * terms a text must have to contain it (a Han word's bigrams, or its one character; an English
   * word's stems). They bridge a question's modern words and the classics' own (了解 ~ 知,
   * leader ~ ruler), in retrieval and in the evidence floor alike.
   */
  /** The synonym groups (by index) that hold each term. */
  private readonly groupsByTerm = new Map<string, number[]>();
  private readonly synonymGroups: {
    label: string;
    words: string[];
    alternatives: string[][];
    /** How each word is found in a modern text: a Han word as a substring, an English one as a whole word. */
    mentions: { word: string; single: boolean; english?: RegExp; id: number }[];
  }[];
  /** Every group's mention words, by the mentions' ids: one pass over a text finds which it holds. */
  private readonly mentionTrie = new StringTrie();
  private readonly mentionCount: number;

  /**
   * `textCacheEntries`: texts whose intermediate results (engine results, concepts named,
   * situations matched, question matchers) are kept, per kind. A few are enough for one request's
   * own repeated work; more also serve repeated questions.
   */
  constructor(
    private readonly k: Knowledge,
    options: { textCacheEntries?: number } = {},
  ) {
    this.textCacheEntries = Math.max(1, options.textCacheEntries ?? 512);
    this.prepared = new LRUCache<string, PreparedQuery>({ max: this.textCacheEntries });
    this.conceptsFound = new LRUCache<string, Concept[]>({ max: this.textCacheEntries });
    this.situationsFound = new LRUCache<string, SituationMatch[]>({ max: this.textCacheEntries });
    for (const concept of k.concepts) {
      for (const name of conceptNames(concept)) {
        const alias = normalize(name).trim();
        const cjk = /\p{Script=Han}/u.test(alias);
        // An English alias that is an everyday word ("will", "way") is not a mention of the concept.
        if (cjk || (alias.length >= 3 && !STOP.has(alias))) aliasIndex(this.aliasIndex, alias, concept.id, PROPER_NAME.test(name.trim()) ? name.trim() : undefined);
      }
      // Pinyin is written with the syllables apart as often as joined (kang long you hui, kanglong you hui).
      const syllables = pinyinSyllables(normalize(concept.pinyin_plain ?? '').replace(/\s+/g, ''), Array.from(normalize(concept.zh).replace(/[^\p{Script=Han}]/gu, '')).length);
      if (syllables && syllables.length >= 2) aliasIndex(this.aliasIndex, syllables.join(' '), concept.id);
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
    this.aliasIndex.forEach((e, i) => this.aliasTrie.add(e.alias, i));
    // Modern everyday words cut a question too (see MODERN_WORDS and ORDINARY_WORDS).
    for (const word of [...k.synonyms.flat(), ...k.concepts.flatMap(conceptNames), ...MODERN_WORDS, ...ORDINARY_WORDS]) {
      const n = normalize(word).trim();
      const length = Array.from(n).length;
      if (length >= 2 && /^\p{Script=Han}+$/u.test(n)) {
        this.lexicon.words.add(n);
        this.lexicon.starts!.add(Array.from(n).slice(0, 2).join(''));
        this.lexicon.longest = Math.max(this.lexicon.longest, length);
      }
    }
    this.synonymGroups = k.synonyms.map((words) => ({
      label: `syn:${words[0]}`,
      words,
      alternatives: words.map(wordTerms).filter((a) => a.length > 0),
      mentions: words.map((w) => {
        const word = normalize(w);
        if (/\p{Script=Han}/u.test(word)) return { word, single: Array.from(word).length === 1, id: 0 };
        return { word, single: false, english: new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`), id: 0 };
      }),
    }));
    let mentionId = 0;
    for (const g of this.synonymGroups) {
      for (const m of g.mentions) {
        m.id = mentionId++;
        if (m.word) this.mentionTrie.add(m.word, m.id);
      }
    }
    this.mentionCount = mentionId;

    this.synonymGroups.forEach((g, i) => {
      for (const t of g.alternatives.flat()) this.groupsByTerm.set(t, [...new Set([...(this.groupsByTerm.get(t) ?? []), i])]);
    });

    this.conceptsByOrdinal = k.passages.map((p) => [...(this.conceptsByPassage.get(p.id) ?? [])]);
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
  }

  private situations(): { index: TextIndex; terms: Map<string, Set<string>> } {
    if (!this.situationsIndexed) {
      const situationTerms = new Map<string, Set<string>>();
      const docs = this.k.situations.map((sit) => {
        const text = [sit.title_zh, sit.title_en, sit.tension_zh, sit.tension_en, ...sit.phrasings_zh, ...sit.phrasings_en].join('\n');
        const synonymTerms = this.groupsMentioned(text).map((g) => g.label);
        situationTerms.set(sit.id, new Set([...terms(text), ...synonymTerms]));
        return { id: sit.id, text };
      });
      const steps = TextIndex.build(docs, { fields: ['text'], extract: (doc) => doc.text, id: (doc) => doc.id, tokenize: (text) => terms(text) }, () => false);
      let step = steps.next();
      while (!step.done) step = steps.next();
      this.situationsIndexed = { index: step.value, terms: situationTerms };
    }
    return this.situationsIndexed;
  }

  private stats() {
    if (!this.termStats) {
      const byPassage = new Map<string, Set<string>>();
      const documentFrequency = new Map<string, number>();
      const normalizedText = new Map<string, string>();
      const normalizedByOrdinal: string[] = [];
      const ordinal = new Map<string, number>();
      const lists = new Map<string, number[]>();
      const owns: Set<string>[] = [];
      for (const p of this.k.passages) {
        normalizedText.set(p.id, normalize(p.text));
        normalizedByOrdinal.push(normalizedText.get(p.id)!);
        const claimText = (this.k.claimsByPassage.get(p.id) ?? []).map((c) => `${c.statement_zh}\n${c.statement_en}`).join('\n');
        const own = new Set(terms(`${p.text}\n${p.en ?? ''}\n${claimText}`));
        byPassage.set(p.id, own);
        ordinal.set(p.id, owns.length);
        for (const t of own) {
          documentFrequency.set(t, (documentFrequency.get(t) ?? 0) + 1);
          let list = lists.get(t);
          if (!list) lists.set(t, (list = []));
          list.push(owns.length);
        }
        owns.push(own);
      }
      const postings = new Map<string, Int32Array>();
      for (const [t, list] of lists) postings.set(t, Int32Array.from(list));
      this.termStats = { byPassage, documentFrequency, normalizedText, normalizedByOrdinal, ordinal, postings, owns };
    }
    return this.termStats;
  }

  /** The passages (by position) that carry a unit: all terms of one of its alternatives. */
  carriers(unit: QueryUnit): Uint8Array {
    const { owns } = this.stats();
    const out = new Uint8Array(owns.length);
    this.eachCarrier(unit, (at) => {
      out[at] = 1;
    });
    return out;
  }

  /** A passage's position in the term statistics (see carriers), or undefined for an unknown id. */
  ordinalOf(passageId: string): number | undefined {
    return this.stats().ordinal.get(passageId);
  }

  /**
   * Calls `visit` with the position of each passage carrying the unit, from the postings of the
   * rarest term of each alternative (a passage carrying it by two alternatives may come twice).
   */
  private eachCarrier(unit: QueryUnit, visit: (at: number) => void): void {
    const { postings, owns } = this.stats();
    for (const alternative of unit.alternatives) {
      let rarest: Int32Array | undefined;
      for (const t of alternative) {
        const list = postings.get(t);
        if (!list) {
          rarest = undefined;
          break;
        }
        if (!rarest || list.length < rarest.length) rarest = list;
      }
      if (!rarest) continue;
      for (let j = 0; j < rarest.length; j++) {
        const at = rarest[j]!;
        if (alternative.length === 1 || hasAll(owns[at]!, alternative)) visit(at);
      }
    }
  }

  /**
   * How many of the units each passage carries (by passage ordinal), counted from the postings of
   * the units' terms rather than passage by passage: one pass serves every candidate of a search,
   * whatever its scope.
   */
  private carriedCounts(units: QueryUnit[]): Uint16Array {
    const { owns } = this.stats();
    const counts = new Uint16Array(owns.length);
    // The unit (1-based) that last counted each passage: a passage carrying a unit by two alternatives counts once.
    const countedFor = new Uint16Array(owns.length);
    units.forEach((unit, i) => {
      const mark = i + 1;
      this.eachCarrier(unit, (at) => {
        if (countedFor[at] === mark) return;
        countedFor[at] = mark;
        counts[at]!++;
      });
    });
    return counts;
  }

  private link(passageId: string, conceptId: string) {
    const set = this.conceptsByPassage.get(passageId) ?? new Set<string>();
    set.add(conceptId);
    this.conceptsByPassage.set(passageId, set);
  }

  /** Concepts whose name or alias appears in the text (longest names first, no overlaps). */
  detectConcepts(text: string): Concept[] {
    // One request asks this of the same question several times (pipeline, search, situations).
    let found = this.conceptsFound.get(text);
    if (!found) {
      found = this.findConcepts(text);
      this.conceptsFound.set(text, found);
    }
    return [...found];
  }

  private findConcepts(text: string): Concept[] {
    // The title of a classic is not a concept mention (金刚 in 金刚经, "diamond" in Diamond Sutra).
    // A word or two set in quotation marks is read with its neighbours (unquoteShort).
    const n = ` ${unquoteShort(normalize(text)).replace(CLASSIC_TITLES, (m) => ' '.repeat(m.length))} `;
    const found: string[] = [];
    const taken: [number, number][] = [];
    // A question written in ordinary case ("the one people hardly notice") does not name the One.
    const cased = text !== text.toLowerCase();
    // Every occurrence of every alias, each alias's from left to right; the aliases are then read
    // in aliasIndex's order (longest first), as the overlap rule below needs.
    const occurrences = new Map<number, number[]>();
    this.aliasTrie.forEachMatch(n, (place, at) => {
      const list = occurrences.get(place);
      if (list) list.push(at);
      else occurrences.set(place, [at]);
    });
    for (const place of Int32Array.from(occurrences.keys()).sort()) {
      const { alias, conceptId, cjk, proper } = this.aliasIndex[place]!;
      if (proper && cased && !text.includes(proper)) continue;
      for (const at of occurrences.get(place)!) {
        const end = at + alias.length;
        if (!cjk && (/[a-z0-9]/.test(n[at - 1] ?? ' ') || /[a-z0-9]/.test(n[end] ?? ' '))) continue;
        if (cjk && alias.length === 1 && (GRAMMATICAL.has(alias) || ordinaryWordAt(n, at))) continue;
        // A longer name whose last character opens an everyday word (好学 in 好学生) is that word's seam.
        if (cjk && alias.length > 1 && ORDINARY_WORDS.has(n.slice(end - 1, end + 1))) continue;
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

  /**
   * Builds the passage index in small slices, yielding to the event loop between them, so that a
   * starting server answers (and reports ready) while it builds; then the passages' term
   * statistics and the situation index. A search that comes first builds the index at once
   * instead, and this build stops at its next slice rather than finishing work nobody will use.
   */
  warm(): Promise<void> {
    if (this.index) return Promise.resolve();
    this.warming ??= (async () => {
      let n = 0;
      const steps = TextIndex.build(this.documents, PASSAGE_INDEX, () => ++n % WARM_SLICE === 0);
      while (!this.index) {
        const step = steps.next();
        if (step.done) this.index = step.value;
        else await new Promise<void>((resolve) => setImmediate(resolve));
      }
      this.stats();
      this.situations();
    })();
    return this.warming;
  }

  private passageIndex(): TextIndex {
    if (!this.index) {
      const steps = TextIndex.build(this.documents, PASSAGE_INDEX, () => false);
      let step = steps.next();
      while (!step.done) step = steps.next();
      this.index = step.value;
    }
    return this.index;
  }

  /** The documents of the passage index, in index order. */
  get indexedPassages(): readonly IndexedPassage[] {
    return this.documents;
  }

  /**
   * Life situations the text describes, by how people phrase them: each with the share of the
   * text's (rarity-weighted) terms that its phrasings, title and tension contain.
   */
  matchSituations(text: string, limit = 3, contentTerms?: string[]): SituationMatch[] {
    // Illumination asks this of the same text once per tradition.
    const key = `${limit}\u0000${contentTerms ? contentTerms.join('\u0001') : '\u0002'}\u0000${text}`;
    let found = this.situationsFound.get(key);
    if (!found) this.situationsFound.set(key, (found = this.findSituations(text, limit, contentTerms)));
    return [...found];
  }

  private findSituations(text: string, limit: number, contentTerms?: string[]): SituationMatch[] {
    const base = contentTerms ?? [...new Set(terms(text))];
    // Each word also counts as matched when a synonym of it is in the situation (dad ~ father ~ 爸).
    const groups = this.groupsMentioned(text);
    const queryTerms = [...new Set([...base, ...groups.map((g) => g.label)])];
    if (!queryTerms.length) return [];
    const weights = queryTerms.map((t) => (t.startsWith('syn:') ? 3 : this.idf(t)));
    const total = weights.reduce((a, b) => a + b, 0);
    // A question's content (contentTerms given) is weighed with its Han text by character; a
    // whole text without them (a runtime mode's query) term by term.
    const nonHan = queryTerms.flatMap((t, i) => (isCjk(t) ? [] : [i]));
    const byCharacter = contentTerms ? this.situationCoverage(text, nonHan.map((i) => queryTerms[i]!), nonHan.map((i) => weights[i]!)) : undefined;
    const situations = this.situations();
    return situations.index
      // The groups' one-character words (知, 言) are classical bridges to passages, not how a
      // situation is phrased: only the others widen this search.
      .ranked(`${text} ${groups.flatMap((g) => g.mentions.filter((m) => !m.single).map((m) => m.word)).join(' ')}`)
      .slice(0, 20)
      .map((r) => {
        const own = situations.terms.get(r.id as string)!;
        const coverage = byCharacter ? byCharacter(own) : queryTerms.reduce((sum, t, i) => sum + (own.has(t) ? weights[i]! : 0), 0) / (total || 1);
        // How many of the text's terms the situation shares: one rare word alone ("car" in
        // "change the oil in my car" and in "others buy houses and cars") is no situation.
        const matched = queryTerms.filter((t) => own.has(t)).length;
        return { situation: this.k.situationById.get(r.id as string)!, coverage, matched, score: r.score };
      })
      .sort((a, b) => b.coverage - a.coverage || b.score - a.score || a.situation.id.localeCompare(b.situation.id))
      .slice(0, limit)
      .map(({ situation, coverage, matched }) => ({ situation, coverage, matched }));
  }

  /**
   * The share of a question's content a situation holds, with its Han text weighed as the
   * evidence floor weighs a passage's (see QuestionMatcher): by character, so that the seams
   * between its words (司干 in 公司干了, 让领 in 全让领导), which no situation has, weigh nothing
   * of their own; a character counts as held when a term holding it is in the situation. English
   * words and the synonym groups mentioned weigh as they do term by term.
   */
  private situationCoverage(text: string, others: string[], otherWeights: number[]): (own: Set<string>) => number {
    const { chars, spans } = analyseQuestion(text, this.lexicon);
    const weight = chars.map((c) => (isFunctionCharacter(c) ? 0 : this.idf(c)));
    const counted = [...new Set(spans.flatMap((sp) => sp.at))];
    const total = counted.reduce((sum, i) => sum + weight[i]!, 0) + otherWeights.reduce((a, b) => a + b, 0);
    return (own) => {
      const held = new Set<number>();
      for (const sp of spans) if (own.has(sp.term)) for (const i of sp.at) held.add(i);
      let sum = 0;
      for (const i of held) sum += weight[i]!;
      others.forEach((t, k) => {
        if (own.has(t)) sum += otherWeights[k]!;
      });
      return total > 0 ? sum / total : 0;
    };
  }

  /**
   * The synonym groups a modern text mentions (to match it with situations, which are written in
   * modern words): a Han word anywhere in it, an English word as a whole word. A one-character
   * word (爸, 累, 知) does not count inside the name of a concept the text names: 良知 is no
   * mention of 知 (understanding).
   */
  private groupsMentioned(text: string): Retrieval['synonymGroups'] {
    const n = ` ${normalize(text)} `;
    let masked: string | undefined;
    const maskedText = () => {
      if (masked === undefined) {
        masked = n;
        for (const c of this.detectConcepts(text)) {
          for (const name of conceptNames(c)) {
            const cjk = normalize(name);
            if (/\p{Script=Han}/u.test(cjk) && Array.from(cjk).length >= 2) masked = masked.split(cjk).join(' ');
          }
        }
      }
      return masked;
    };
    // Which mention words the text holds at all, in one pass; the whole-word test and the masked
    // text are only needed for those.
    const present = new Uint8Array(this.mentionCount);
    this.mentionTrie.forEachMatch(n, (id) => (present[id] = 1));
    const holds = (m: { word: string; id: number }) => m.word === '' || present[m.id] === 1;
    return this.synonymGroups.filter((g) =>
      g.mentions.some((m) => (m.english ? holds(m) && m.english.test(n) : m.single ? holds(m) && maskedText().includes(m.word) : holds(m))),
    );
  }

  /** Inverse document frequency: rare terms weigh more; a term no passage has weighs most. */
  idf(term: string): number {
    const { byPassage, documentFrequency } = this.stats();
    return Math.log((byPassage.size + 1) / ((documentFrequency.get(term) ?? 0) + 1));
  }

  /**
   * The question's terms as units to match: terms that a synonym group contains become one unit
   * of that group (了解 -> {了解, 知, understand, ...}); overlapping groups merge; every other term
   * is a unit of its own.
   */
  queryUnits(queryTerms: string[]): QueryUnit[] {
    const have = new Set(queryTerms);
    const units: QueryUnit[] = [];
    const byTerm = new Map<string, QueryUnit>();
    // Only the groups holding one of the question's terms can match (in the groups' own order).
    const candidates = new Set<number>();
    for (const t of have) for (const g of this.groupsByTerm.get(t) ?? []) candidates.add(g);
    for (const g of [...candidates].sort((a, b) => a - b)) {
      const group = this.synonymGroups[g]!;
      const found = group.alternatives.filter((a) => a.every((t) => have.has(t)));
      if (!found.length) continue;
      const covers = [...new Set(found.flat())];
      const merged = covers.map((t) => byTerm.get(t)).find((u) => u);
      const unit = merged ?? { label: group.label, alternatives: [], covers: [] };
      if (!merged) units.push(unit);
      unit.alternatives.push(...group.alternatives);
      for (const t of covers) if (!unit.covers.includes(t)) unit.covers.push(t);
      for (const t of unit.covers) byTerm.set(t, unit);
    }
    for (const t of queryTerms) if (!byTerm.has(t)) units.push({ label: t, alternatives: [[t]], covers: [t] });
    return units;
  }

  /** The words of the synonym groups among these units (to widen an engine query with). */
  synonymWords(units: QueryUnit[]): string[] {
    const labels = new Set(units.map((u) => u.label));
    return this.synonymGroups.filter((g) => labels.has(g.label)).flatMap((g) => g.words);
  }

  /** The units some passage can carry (a seam or a word no passage has can be skipped when matching). */
  liveUnits(units: QueryUnit[]): QueryUnit[] {
    const { documentFrequency } = this.stats();
    return units.filter((u) => u.alternatives.some((a) => a.every((t) => documentFrequency.has(t))));
  }

  /** Whether a passage carries a unit: all terms of any one of its alternatives. */
  carries(passageId: string, unit: QueryUnit): boolean {
    return carried(this.termsOf(passageId), unit);
  }

  /**
   * The terms of each sentence of a passage: of its text, its English rendering and each of its
   * claim statements that says what the passage itself says (truth boundary direct). A quote a
   * question cites is carried within one sentence, not by words scattered over a long passage;
   * and not by a reader's application in modern words ("absorbed in work one loves"), which is
   * no rendering of the line.
   */
  sentenceTerms(passageId: string): Set<string>[] {
    let out = this.sentences.get(passageId);
    if (!out) {
      const p = this.k.passageById.get(passageId);
      const claims = (this.k.claimsByPassage.get(passageId) ?? []).filter((c) => c.truth_boundary === 'direct').flatMap((c) => [c.statement_zh, c.statement_en]);
      out = [p?.text ?? '', p?.en ?? '', ...new Set(claims)]
        .flatMap((text) => text.split(SENTENCE_END))
        .map((sentence) => new Set(terms(sentence)))
        .filter((set) => set.size > 0);
      this.sentences.set(passageId, out);
    }
    return out;
  }

  /**
   * A passage's sentences in normal form, as sentenceTerms reads them (text, rendering, direct
   * claim statements), for what needs their word order.
   */
  sentencesOf(passageId: string): string[] {
    let out = this.sentenceTexts.get(passageId);
    if (!out) {
      const p = this.k.passageById.get(passageId);
      const claims = (this.k.claimsByPassage.get(passageId) ?? []).filter((c) => c.truth_boundary === 'direct').flatMap((c) => [c.statement_zh, c.statement_en]);
      out = [p?.text ?? '', p?.en ?? '', ...new Set(claims)]
        .flatMap((text) => normalize(text).split(SENTENCE_END))
        .map((sentence) => sentence.trim())
        .filter(Boolean);
      this.sentenceTexts.set(passageId, out);
    }
    return out;
  }

  /** A passage's text in normal form (see normalize). */
  textOf(passageId: string): string {
    return this.stats().normalizedText.get(passageId) ?? '';
  }

  /** A passage's Han characters alone, in normal form (a quote is matched clause by clause against them). */
  hanTextOf(passageId: string): string {
    let han = this.hanTexts.get(passageId);
    if (han === undefined) this.hanTexts.set(passageId, (han = this.textOf(passageId).replace(/[^\p{Script=Han}]+/gu, '')));
    return han;
  }

  /** The terms a passage is indexed under (its text, English rendering and claim statements). */
  termsOf(passageId: string): Set<string> {
    return this.stats().byPassage.get(passageId) ?? new Set();
  }

  conceptsOf(passageId: string): string[] {
    return [...(this.conceptsByPassage.get(passageId) ?? [])];
  }

  /** The engine's matches for a query over every passage, with what the ranking after it needs of each. */
  private engineResult(engineQuery: string, units: QueryUnit[]): EngineResult {
    // The index holds the passages in the knowledge's order: a document's position is its passage's.
    const { ordinals, scores } = this.passageIndex().matches(engineQuery, { boost: PASSAGE_BOOST });
    return { ordinals, scores, carried: this.carriedCounts(this.liveUnits(units)) };
  }

  /**
   * The engine's best `wanted` matches that `keep` accepts, in no particular order (search ranks
   * them again): the first `wanted` accepted of every match sorted by score, ties in the order
   * the engine first matched them, without sorting the hundreds a question's common words match.
   */
  private best(engine: EngineResult, keep: (p: Passage) => boolean, wanted: number, packId?: string): Candidate[] {
    const { ordinals, scores } = engine;
    let at: number[] = [];
    if (packId === undefined) {
      for (let i = 0; i < ordinals.length; i++) if (keep(this.k.passages[ordinals[i]!]!)) at.push(i);
    } else {
      // Only the pack's own matches, in the same order (illumination searches each tradition's packs in turn).
      if (!engine.byPack) {
        engine.byPack = new Map();
        for (let i = 0; i < ordinals.length; i++) {
          const id = this.k.passages[ordinals[i]!]!.packId;
          const list = engine.byPack.get(id);
          if (list) list.push(i);
          else engine.byPack.set(id, [i]);
        }
      }
      for (const i of engine.byPack.get(packId) ?? []) if (keep(this.k.passages[ordinals[i]!]!)) at.push(i);
    }
    if (at.length > wanted) {
      // The wanted-th best score; ties at it are taken in the order first matched.
      const values = new Float64Array(at.length);
      for (let j = 0; j < at.length; j++) values[j] = scores[at[j]!]!;
      const threshold = kthLargest(values, wanted);
      let room = wanted - at.filter((i) => scores[i]! > threshold).length;
      at = at.filter((i) => scores[i]! > threshold || (scores[i] === threshold && room-- > 0));
    }
    return at.map((i) => ({ passage: this.k.passages[ordinals[i]!]!, score: scores[i]!, ordinal: ordinals[i]! }));
  }

  /** Each passage's place (by ordinal) among all passages sorted by id, as localeCompare sorts them. */
  private idOrder(): Uint32Array {
    if (!this.idPlaces) {
      const places = new Uint32Array(this.k.passages.length);
      this.k.passages
        .map((p, ordinal) => ({ id: p.id, ordinal }))
        .sort((a, b) => a.id.localeCompare(b.id))
        .forEach(({ ordinal }, place) => (places[ordinal] = place));
      this.idPlaces = places;
    }
    return this.idPlaces;
  }

  /**
   * What a search needs of the query whatever its scope: illumination searches the same text
   * once per tradition. Undefined when the query has nothing to search with.
   */
  private prepare(query: string): PreparedQuery | undefined {
    const known = this.prepared.get(query);
    if (known) return known.engine ? known : undefined;
    const concepts = this.detectConcepts(query);
    // Concept names in the query also search under their other names (wu wei -> 无为).
    const expansion = concepts.flatMap((c) => [c.zh, c.en]).join(' ');
    // The question's words (bigrams, lone characters, English stems), with those a synonym group
    // bridges as one unit: a modern word also searches under its classical synonyms (说话 -> 言).
    const units = this.queryUnits(questionTerms(`${query} ${concepts.map((c) => c.zh).join(' ')}`, this.lexicon));
    if (!units.length && !expansion) {
      this.prepared.set(query, { units, conceptIds: new Set(), phrase: '', names: [] });
      return undefined;
    }
    const engineQuery = `${query} ${expansion} ${this.synonymWords(units).join(' ')}`;
    const out: PreparedQuery = {
      units,
      conceptIds: new Set(concepts.map((c) => c.id)),
      engine: this.engineResult(engineQuery, units),
      // The question's Han characters as one phrase, when it has two or more.
      phrase: normalize(query).replace(/[^\p{Script=Han}]/gu, ''),
      // The Han names of the concepts the question names count as its own words (wu wei -> 无为).
      names: concepts.map((c) => normalize(c.zh)).filter((name) => Array.from(name).length >= 2),
    };
    if (Array.from(out.phrase).length < 2) out.phrase = '';
    this.prepared.set(query, out);
    return out;
  }

  search(query: string, scope: RetrievalScope = {}, limit = 20): Hit[] {
    const prepared = this.prepare(query);
    if (!prepared) return [];
    const { units, conceptIds, engine, phrase, names } = prepared as Required<PreparedQuery>;
    // The engine's best results within the scope; only the first few are ranked further. A scope
    // of several packs (a question comparing two classics) takes each pack's best, so that one
    // classic's many passages do not crowd out the other's.
    const wanted = Math.max(limit * 4, 60);
    const packIds = scope.packIds && [...new Set(scope.packIds)];
    const perPack = packIds && packIds.length > 1;
    const inTraditions = (p: Passage) => !scope.traditions || scope.traditions.includes(p.tradition);
    const results = packIds
      ? packIds.flatMap((id) => this.best(engine, inTraditions, wanted, id))
      : this.best(engine, inTraditions, wanted);
    // An English word that few passages have (pond, raft, bamboo) names the passage a question is
    // about, however many passages share its commoner words (learning and its synonyms): those
    // passages are always ranked, and first. (A rare Han bigram is as often a seam between two
    // words as a word.)
    const listed = new Set(results.map((r) => r.ordinal));
    const rare = new Set<number>();
    // The same for every scope of the question: found once (illumination searches each tradition).
    prepared.rareOwners ??= units.flatMap((unit) => {
      if (unit.covers.some((t) => isCjk(t))) return [];
      const owners: number[] = [];
      this.eachCarrier(unit, (at) => {
        if (owners.length <= RARE_UNIT) owners.push(at);
      });
      return owners.length > RARE_UNIT ? [] : [owners];
    });
    for (const owners of prepared.rareOwners) {
      for (const at of owners) {
        const passage = this.k.passages[at]!;
        rare.add(at);
        if (listed.has(at) || (packIds && !packIds.includes(passage.packId)) || !inTraditions(passage)) continue;
        listed.add(at);
        const i = engine.ordinals.indexOf(at);
        results.push({ passage, score: i >= 0 ? engine.scores[i]! : 0, ordinal: at });
      }
    }
    // The best engine score among them.
    const top = results.reduce((best, c) => Math.max(best, c.score), results[0]?.score ?? 1);
    const { normalizedByOrdinal } = this.stats();
    const idOrder = this.idOrder();
    const ranked = results.map(({ passage, score, ordinal }) => {
      const coverage = units.length ? engine.carried[ordinal]! / units.length : 0;
      const linked: string[] = [];
      if (conceptIds.size) for (const id of this.conceptsByOrdinal[ordinal]!) if (conceptIds.has(id)) linked.push(id);
      // The passage's own words decide first (share of the query's terms, and the exact phrase);
      // the engine's score, which also counts linked concept names, orders the rest.
      const text = normalizedByOrdinal[ordinal]!;
      // The question's own phrase outranks the name of a concept it mentions.
      const exact = phrase && text.includes(phrase) ? 1.5 : names.some((name) => text.includes(name)) ? 1 : 0;
      return { hit: { passage, score, coverage, conceptIds: linked }, rank: exact + (rare.has(ordinal) ? 1 : 0) + coverage * 2 + score / top, place: idOrder[ordinal]! };
    });
    // Ties by passage id (its place in id order: a localeCompare per comparison costs more than the rest of the ranking).
    ranked.sort((a, b) => b.rank - a.rank || a.place - b.place);
    const hits = ranked.map((r) => r.hit);
    if (!perPack) return hits.slice(0, limit);
    // Each pack of the scope keeps its share of the places; the rest go by rank.
    const share = Math.floor(limit / packIds.length);
    const kept = new Set<Hit>();
    for (const id of packIds) for (const h of hits.filter((x) => x.passage.packId === id).slice(0, share)) kept.add(h);
    for (const h of hits) if (kept.size < limit) kept.add(h);
    return hits.filter((h) => kept.has(h));
  }
}

/**
 * The k-th largest of the values (1-based), reordering them: Hoare's selection, linear on
 * average. A full sort, or a sort with a comparator, of the several hundred scores of a search
 * cost more than the search's scoring itself.
 */
export function kthLargest(values: Float64Array, k: number): number {
  // The k-th largest is the (n - k)-th smallest.
  const target = values.length - k;
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return values[target]!;
}

function conceptNames(c: Concept): string[] {
  return [c.zh, c.zh_traditional, c.pinyin, c.pinyin_plain, c.en, ...c.aliases].filter((s) => s && s.trim());
}

/** Whether a set of terms has all terms of any one of a unit's alternatives. */
export function carried(own: Set<string>, unit: QueryUnit): boolean {
  for (const alternative of unit.alternatives) if (hasAll(own, alternative)) return true;
  return false;
}

function hasAll(own: Set<string>, terms: readonly string[]): boolean {
  for (const t of terms) if (!own.has(t)) return false;
  return true;
}

/** The terms a text must have to contain a word: a Han word's bigrams (or its one character), an English word's stems. */
function wordTerms(word: string): string[] {
  const n = normalize(word);
  if (/\p{Script=Han}/u.test(n)) {
    const grams = cjkGrams(n);
    const bigrams = grams.filter((g) => Array.from(g).length === 2);
    return bigrams.length ? bigrams : grams;
  }
  return englishTerms(n);
}

function aliasIndex(list: AliasEntry[], alias: string, conceptId: string, proper?: string) {
  if (!list.some((e) => e.alias === alias && e.conceptId === conceptId)) list.push({ alias, conceptId, cjk: /\p{Script=Han}/u.test(alias), ...(proper ? { proper } : {}) });
}
