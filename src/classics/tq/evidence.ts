import type { Knowledge } from '../packs.js';
import type { Passage, Tradition } from '../model.js';
import type { Hit, Retrieval, RetrievalScope } from '../retrieval.js';
import { cjkGrams, englishTerms, normalize } from '../text.js';
import type { Intent } from './intent.js';

export interface Evidence {
  passage: Passage;
  /** Why this passage counts as evidence. */
  basis: 'reference' | 'concept' | 'match' | 'situation';
  relevance: number;
}

/** Han characters too common to carry a question's meaning on their own. */
const ZH_STOP = new Set(Array.from('的了是吗呢么吧啊呀和与及或在对把被给向从以于也都就还又很更最不没有这那个些种样么什怎如何为哪谁几说讲谈讲请问一下我你他她它们要想会能可该应'));

/**
 * The terms a passage must share with the question: Han bigrams (unigrams only when the content
 * is a single character) without function characters, and stemmed English content words.
 */
export function contentTerms(content: string): string[] {
  const n = normalize(content);
  const grams = cjkGrams(n).filter((g) => Array.from(g).length === 2 && !Array.from(g).every((c) => ZH_STOP.has(c)));
  const singles = cjkGrams(n).filter((g) => Array.from(g).length === 1 && !ZH_STOP.has(g));
  return [...new Set([...(grams.length ? grams : singles), ...englishTerms(n)])];
}

/**
 * The share of the question's (rarity-weighted) content a passage must carry to count as
 * evidence. A question that names a classic is held to a lower floor, since the classic it names
 * is already known to be what it asks about; an unnamed question must match more.
 */
export const RELEVANCE_FLOOR = 0.5;
export const RELEVANCE_FLOOR_NAMED = 0.3;
/** How much of the question a situation's own phrasings must share to speak for it. */
export const SITUATION_FLOOR = 0.28;

export function scopeFor(intent: Intent, requested: RetrievalScope): RetrievalScope {
  if (requested.packIds || requested.traditions) return requested;
  return intent.packsNamed.length ? { packIds: intent.packsNamed } : {};
}

/**
 * Evidence: passages the question names, passages linked to the concepts it names, and retrieved
 * passages whose share of the question's content terms reaches the relevance floor. Anything
 * below the floor is not evidence, however high it ranks: a weak match must not be stretched.
 */
export function selectEvidence(intent: Intent, hits: Hit[], k: Knowledge, retrieval: Retrieval, scope: RetrievalScope, max = 5): Evidence[] {
  const inScope = (p: Passage) =>
    (!scope.packIds || scope.packIds.includes(p.packId)) && (!scope.traditions || scope.traditions.includes(p.tradition as Tradition));
  const chosen = new Map<string, Evidence>();
  for (const p of intent.references) if (inScope(p)) chosen.set(p.id, { passage: p, basis: 'reference', relevance: 1 });

  // The Han names of the concepts the question names are part of what it asks about.
  // A concept named in another script (wu wei, wúwéi) is matched by its Han name, not by its
  // romanisation, which would also hit names like the state of Wei.
  let content = intent.content;
  for (const c of intent.concepts) for (const alias of [c.pinyin_plain, c.pinyin, ...c.aliases]) if (alias && !/\p{Script=Han}/u.test(alias)) content = content.split(normalize(alias)).join(' ');
  const terms = contentTerms(`${content} ${intent.concepts.map((c) => c.zh).join(' ')}`);
  const weights = terms.map((t) => retrieval.idf(t));
  const total = weights.reduce((a, b) => a + b, 0);
  const conceptIds = new Set(intent.concepts.map((c) => c.id));
  for (const hit of hits) {
    if (chosen.size >= max) break;
    if (chosen.has(hit.passage.id) || !inScope(hit.passage)) continue;
    const own = retrieval.termsOf(hit.passage.id);
    const matchedIdx = terms.map((t, i) => (own.has(t) ? i : -1)).filter((i) => i >= 0);
    const matched = matchedIdx.length;
    // Coverage weighted by rarity: sharing "good" with a passage says little, sharing 若水 a lot;
    // a term no passage contains (iphone, 曼联) weighs most and pulls coverage down.
    const coverage = total > 0 ? matchedIdx.reduce((sum, i) => sum + weights[i]!, 0) / total : 0;
    const conceptLinked = hit.conceptIds.some((id) => conceptIds.has(id));
    if (conceptLinked && coverage > 0) {
      chosen.set(hit.passage.id, { passage: hit.passage, basis: 'concept', relevance: Math.max(coverage, 0.75) });
    } else if (coverage >= (intent.packsNamed.length ? RELEVANCE_FLOOR_NAMED : RELEVANCE_FLOOR) && matched >= Math.min(2, terms.length)) {
      chosen.set(hit.passage.id, { passage: hit.passage, basis: 'match', relevance: coverage });
    }
  }
  // A question that describes a life situation reaches the passages that situation rests on.
  if (intent.kind === 'situational') {
    for (const { situation, coverage } of retrieval.matchSituations(intent.content, 2, contentTerms(intent.content))) {
      if (coverage < SITUATION_FLOOR) continue;
      for (const view of Object.values(situation.perspectives)) {
        for (const id of view?.passage_ids ?? []) {
          const p = k.passageById.get(id);
          if (p && inScope(p) && !chosen.has(p.id) && chosen.size < max) chosen.set(p.id, { passage: p, basis: 'situation', relevance: coverage });
        }
      }
    }
  }
  // Concept key passages that retrieval ranked low still count when the concept is named.
  for (const concept of intent.concepts) {
    for (const locator of concept.key_locators) {
      if (chosen.size >= max) break;
      const p = k.passageByLocator.get(locator);
      if (p && inScope(p) && !chosen.has(p.id)) chosen.set(p.id, { passage: p, basis: 'concept', relevance: 0.75 });
    }
  }
  return [...chosen.values()].slice(0, max);
}
