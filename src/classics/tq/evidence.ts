import type { Knowledge } from '../packs.js';
import type { Passage, Tradition } from '../model.js';
import { carried, type Hit, type QueryUnit, type Retrieval, type RetrievalScope } from '../retrieval.js';
import { analyseQuestion, isFunctionCharacter, normalize, questionTerms } from '../text.js';
import type { Intent } from './intent.js';

export interface Evidence {
  passage: Passage;
  /** Why this passage counts as evidence. */
  basis: 'reference' | 'concept' | 'match' | 'situation';
  relevance: number;
}

/**
 * The terms a passage must share with the question: Han bigrams that may be words (not 什么,
 * not 的人), a Han character that stands alone (王阳明怎么看待悔 -> 悔), and stemmed English
 * content words.
 */
export function contentTerms(content: string): string[] {
  return questionTerms(content);
}

/**
 * How much of a question a passage carries, weighted by rarity: sharing "good" says little,
 * sharing 若水 a lot, and a word no passage has (iphone, 曼联) weighs most and pulls the share
 * down. Han text is weighed by character, not by bigram: without word segmentation 区分了解别人
 * also yields the seams 分了 and 解别, which no text has and which would otherwise weigh as much
 * as a word no passage has; by character, a seam weighs nothing of its own, and a character
 * counts as carried when any bigram (or synonym) holding it is in the passage. Terms the
 * synonym groups bridge (说话 ~ 言, leader ~ ruler) are carried by any word of the group.
 */
export class QuestionMatcher {
  readonly units: QueryUnit[];
  private readonly charWeight: number[];
  private readonly unitChars: number[][];
  private readonly unitEnglishWeight: number[];
  /** The units some passage can carry: the only ones worth checking. */
  private readonly live: number[];
  readonly total: number;

  constructor(content: string, private readonly retrieval: Retrieval) {
    const { chars, spans, english } = analyseQuestion(content, retrieval.lexicon);
    const terms = [...new Set([...spans.map((s) => s.term), ...english])];
    this.units = retrieval.queryUnits(terms);
    const live = new Set(retrieval.liveUnits(this.units));
    this.live = this.units.flatMap((u, i) => (live.has(u) ? [i] : []));
    this.charWeight = chars.map((c) => (isFunctionCharacter(c) ? 0 : retrieval.idf(c)));
    const englishSet = new Set(english);
    this.unitChars = this.units.map((u) => [...new Set(spans.filter((s) => u.covers.includes(s.term)).flatMap((s) => s.at))]);
    this.unitEnglishWeight = this.units.map((u) => Math.max(0, ...u.covers.filter((t) => englishSet.has(t)).map((t) => retrieval.idf(t))));
    const hanChars = new Set(this.unitChars.flat());
    this.total = [...hanChars].reduce((sum, i) => sum + this.charWeight[i]!, 0) + this.unitEnglishWeight.reduce((a, b) => a + b, 0);
  }

  /** The share of the question a passage carries, and how many of the question's units it has. */
  match(passageId: string): { coverage: number; matched: number } {
    const own = this.retrieval.termsOf(passageId);
    const chars = new Set<number>();
    let english = 0;
    let matched = 0;
    for (const i of this.live) {
      if (!carried(own, this.units[i]!)) continue;
      matched++;
      for (const c of this.unitChars[i]!) chars.add(c);
      english += this.unitEnglishWeight[i]!;
    }
    let han = 0;
    for (const c of chars) han += this.charWeight[c]!;
    return { coverage: this.total > 0 ? (han + english) / this.total : 0, matched };
  }
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
 * The sentence a question asks in, when it first tells a situation: 最近刚升职，感觉自己有点飘了。
 * 道德经对事情做成之后应该怎么自处？ asks the second sentence. Undefined for a one-sentence question.
 */
export function askingSentence(content: string): string | undefined {
  const sentences = content
    .split(/[。！？!?；;\n]|\.(?:\s|$)/u)
    .map((x) => x.trim())
    .filter((x) => questionTerms(x).length > 0);
  return sentences.length >= 2 ? sentences[sentences.length - 1] : undefined;
}

/**
 * Evidence: passages the question names, passages linked to the concepts it names, and retrieved
 * passages whose share of the question's content terms reaches the relevance floor. Anything
 * below the floor is not evidence, however high it ranks: a weak match must not be stretched.
 * A named concept's own key passages are taken first, then the rest in retrieval's order.
 *
 * A question that tells a situation before it asks (I was promoted and feel full of myself;
 * what does the Daodejing say about how to behave once the work is done?) is matched both as a
 * whole and by its asking sentence alone: the story is context in words no classic uses
 * (promoted, 升职), and must not drown what is asked.
 */
export function selectEvidence(intent: Intent, hits: Hit[], k: Knowledge, retrieval: Retrieval, scope: RetrievalScope, max = 5): Evidence[] {
  const inScope = (p: Passage) =>
    (!scope.packIds || scope.packIds.includes(p.packId)) && (!scope.traditions || scope.traditions.includes(p.tradition as Tradition));
  const chosen = new Map<string, Evidence>();
  for (const p of intent.references) if (inScope(p)) chosen.set(p.id, { passage: p, basis: 'reference', relevance: 1 });

  // The Han names of the concepts the question names are part of what it asks about.
  // A concept named in another script (wu wei, wúwéi) is matched by its Han name, not by its
  // romanisation, which would also hit names like the state of Wei.
  const withoutRomanisation = (text: string) => {
    let out = text;
    for (const c of intent.concepts) for (const alias of [c.pinyin_plain, c.pinyin, ...c.aliases]) if (alias && !/\p{Script=Han}/u.test(alias)) out = out.split(normalize(alias)).join(' ');
    return out;
  };
  const names = intent.concepts.map((c) => c.zh).join(' ');
  const whole = new QuestionMatcher(`${withoutRomanisation(intent.content)} ${names}`, retrieval);
  const asking = intent.kind === 'situational' ? askingSentence(intent.content) : undefined;
  const matchers = [whole, ...(asking ? [new QuestionMatcher(`${withoutRomanisation(asking)} ${names}`, retrieval)] : [])];
  const floor = intent.packsNamed.length ? RELEVANCE_FLOOR_NAMED : RELEVANCE_FLOOR;
  const conceptIds = new Set(intent.concepts.map((c) => c.id));
  const keyPassages = new Set(intent.concepts.flatMap((c) => c.key_locators.map((l) => k.passageByLocator.get(l)?.id)));
  const candidates: (Evidence & { coverage: number })[] = [];
  for (const hit of hits) {
    if (chosen.has(hit.passage.id) || !inScope(hit.passage)) continue;
    let best = 0;
    let linkedCoverage = 0;
    for (const question of matchers) {
      const { coverage, matched } = question.match(hit.passage.id);
      linkedCoverage = Math.max(linkedCoverage, coverage);
      if (coverage >= floor && matched >= Math.min(2, question.units.length)) best = Math.max(best, coverage);
    }
    const conceptLinked = hit.conceptIds.some((id) => conceptIds.has(id));
    if (conceptLinked && linkedCoverage > 0) {
      // A named concept's own key passage says most about it; any passage linked to it counts.
      const least = keyPassages.has(hit.passage.id) ? 0.8 : 0.75;
      candidates.push({ passage: hit.passage, basis: 'concept', relevance: least + (1 - least) * linkedCoverage, coverage: linkedCoverage });
    } else if (best > 0) {
      candidates.push({ passage: hit.passage, basis: 'match', relevance: best, coverage: best });
    }
  }
  // A named concept's key passages first, then retrieval's order (the sort is stable): the
  // ranking weighs the passage's text, rendering and claims together, and orders the passages
  // that pass the floor better than the floor's own share does.
  candidates.sort((a, b) => Number(keyPassages.has(b.passage.id)) - Number(keyPassages.has(a.passage.id)));
  // A comparison between named classics needs each of them: their candidates take turns.
  if (intent.kind === 'comparative' && intent.packsNamed.length >= 2) {
    const byPack = intent.packsNamed.map((id) => candidates.filter((c) => c.passage.packId === id));
    const rest = candidates.filter((c) => !intent.packsNamed.includes(c.passage.packId));
    const turns: typeof candidates = [];
    for (let i = 0; byPack.some((list) => i < list.length); i++) for (const list of byPack) if (i < list.length) turns.push(list[i]!);
    candidates.splice(0, candidates.length, ...turns, ...rest);
  }
  // The passage that carries most of the question is evidence even when ranked below the cut
  // (a named concept's passages can fill it: 私欲难克 in Chuanxilu 122 among the 人欲 passages).
  const room = Math.max(0, max - chosen.size);
  const fullest = candidates.reduce<(typeof candidates)[number] | undefined>((a, c) => (!a || c.coverage > a.coverage ? c : a), undefined);
  const taken = candidates.slice(0, room);
  if (fullest && room > 0 && !taken.includes(fullest) && taken.every((c) => c.coverage < fullest.coverage)) taken[room - 1] = fullest;
  for (const { coverage: _, ...c } of taken) chosen.set(c.passage.id, c);
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
