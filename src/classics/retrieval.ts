import MiniSearch from 'minisearch';
import type { Knowledge } from './packs.js';
import type { Concept, Passage, Tradition } from './model.js';
import { normalize, terms } from './text.js';

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
  concepts: string;
}

const TRADITION_NAMES: Record<string, Tradition> = {
  daoist: 'daoist', daoism: 'daoist', taoist: 'daoist', taoism: 'daoist', 道家: 'daoist', 道: 'daoist',
  confucian: 'confucian', confucianism: 'confucian', 儒家: 'confucian', 儒: 'confucian',
  buddhist: 'buddhist', buddhism: 'buddhist', 佛家: 'buddhist', 佛教: 'buddhist', 佛: 'buddhist',
  yangming: 'yangming', 阳明: 'yangming', 心学: 'yangming', 心: 'yangming',
};

export const traditionByName = (name: string): Tradition | undefined => TRADITION_NAMES[normalize(name)];

/**
 * Passage retrieval used by every classics feature. The index holds, per passage, the original
 * text, its English rendering, and the names and aliases of the concepts linked to it (boosted),
 * all as the same terms: Han unigrams+bigrams of normalised text and stemmed English words.
 */
export class Retrieval {
  private readonly index: MiniSearch<IndexedPassage>;
  private readonly passageTerms = new Map<string, Set<string>>();
  private readonly conceptsByPassage = new Map<string, Set<string>>();
  private readonly aliasIndex: { alias: string; conceptId: string; cjk: boolean }[] = [];

  constructor(private readonly k: Knowledge) {
    for (const concept of k.concepts) {
      for (const name of conceptNames(concept)) {
        const alias = normalize(name).trim();
        if (alias.length >= 2 || /\p{Script=Han}/u.test(alias)) aliasIndex(this.aliasIndex, alias, concept.id);
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

    this.index = new MiniSearch<IndexedPassage>({
      fields: ['zh', 'en', 'concepts'],
      storeFields: [],
      tokenize: (text) => terms(text),
      processTerm: (term) => term,
      searchOptions: { boost: { concepts: 2.5, zh: 1.2, en: 1 }, combineWith: 'OR' },
    });
    this.index.addAll(
      k.passages.map((p) => ({
        id: p.id,
        zh: p.text,
        en: p.en ?? '',
        concepts: [...(this.conceptsByPassage.get(p.id) ?? [])]
          .map((id) => k.conceptById.get(id))
          .flatMap((c) => (c ? conceptNames(c) : []))
          .join(' \n '),
      })),
    );
    for (const p of k.passages) this.passageTerms.set(p.id, new Set(terms(`${p.text}\n${p.en ?? ''}`)));
  }

  private link(passageId: string, conceptId: string) {
    const set = this.conceptsByPassage.get(passageId) ?? new Set<string>();
    set.add(conceptId);
    this.conceptsByPassage.set(passageId, set);
  }

  /** Concepts whose name or alias appears in the text (longest names first, no overlaps). */
  detectConcepts(text: string): Concept[] {
    const n = ` ${normalize(text)} `;
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
        if (taken.some(([s, e]) => at < e && end > s)) continue;
        taken.push([at, end]);
        if (!found.includes(conceptId)) found.push(conceptId);
        break;
      }
    }
    return found.map((id) => this.k.conceptById.get(id)!).filter(Boolean);
  }

  conceptsOf(passageId: string): string[] {
    return [...(this.conceptsByPassage.get(passageId) ?? [])];
  }

  search(query: string, scope: RetrievalScope = {}, limit = 20): Hit[] {
    const concepts = this.detectConcepts(query);
    // Concept names in the query also search under their other names (wu wei -> 无为).
    const expansion = concepts.flatMap((c) => [c.zh, c.en]).join(' ');
    const queryTerms = [...new Set(terms(query))];
    if (!queryTerms.length && !expansion) return [];
    const conceptIds = new Set(concepts.map((c) => c.id));
    const results = this.index.search(`${query} ${expansion}`, {
      filter: (r) => {
        const p = this.k.passageById.get(r.id as string);
        if (!p) return false;
        if (scope.packIds && !scope.packIds.includes(p.packId)) return false;
        if (scope.traditions && !scope.traditions.includes(p.tradition)) return false;
        return true;
      },
    });
    const phrase = normalize(query).replace(/[^\p{Script=Han}]/gu, '');
    const top = results[0]?.score ?? 1;
    const ranked = results.slice(0, Math.max(limit * 4, 60)).map((r) => {
      const passage = this.k.passageById.get(r.id as string)!;
      const own = this.passageTerms.get(passage.id)!;
      const matched = queryTerms.filter((t) => own.has(t)).length;
      const coverage = queryTerms.length ? matched / queryTerms.length : 0;
      const linked = this.conceptsOf(passage.id).filter((id) => conceptIds.has(id));
      // The passage's own words decide first (share of the query's terms, and the exact phrase);
      // the engine's score, which also counts linked concept names, orders the rest.
      const exact = Array.from(phrase).length >= 2 && normalize(passage.text).includes(phrase) ? 1 : 0;
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
