/**
 * Full-text search over released entities.
 *
 * Text is normalised the same way for the index and the query: traditional Han characters to
 * simplified (設計 meets 设计), NFKD, combining diacritics removed, a few letters folded that
 * Unicode does not decompose (ø, æ, œ, ß, ł, đ, þ), NFC again (so Hangul and kana recompose),
 * lower case. "Rontgen" meets "Röntgen", "Jorn Utzon" meets
 * "Jørn Utzon".
 *
 * Latin (and other space-separated) text is split into word tokens. In names, aliases, slugs and
 * ids they match by prefix (terms of three or more characters) and fuzzily (0.2 edits per
 * character, rounded down); in descriptions they match whole. CJK runs are indexed and queried as
 * character unigrams plus bigrams, with neither prefix nor fuzzy matching (a one-character edit
 * of a two-character word is another word), a shared single character weighing half a bigram.
 *
 * Scores are in [0, 1]. An exact normalised match of the query against an entity's displayName,
 * one of its aliases, its slug or its id scores exactly 1 and ranks first (matchedField names the
 * first of these, in that order, that the query equals). Every other hit maps the
 * engine's BM25 score s through 0.99 * s / (s + SCORE_HALF), which is monotonic and stays below
 * 0.99. Ties: score desc, then displayName, then id (code-unit order, locale independent).
 */
import { LRUCache } from 'lru-cache';
import * as OpenCC from 'opencc-js';
import { ENTITY_KINDS, type Entity, type EntityKind } from './pack.js';
import { runAsync, runSync, ticker, type Steps } from './steps.js';
import { ExpandingIndex, TextIndex, type QueryTerm } from '../platform/text-index.js';

export type SearchField = 'id' | 'slug' | 'displayName' | 'aliases' | 'description';

export interface SearchHit {
  id: string;
  kind: EntityKind;
  displayName: string;
  slug: string;
  score: number;
  matchedField?: SearchField;
}

export interface SearchQuery {
  q: string;
  scope?: readonly EntityKind[];
  limit: number;
}

/** Field boosts, also the priority order for matchedField. */
const BOOST: Record<SearchField, number> = { displayName: 4, aliases: 3, slug: 2, id: 1.5, description: 0.6 };
/**
 * An id is "<kind>.<slug>" and is indexed without its kind, so its terms are exactly the slug's:
 * the engine indexes the slug once with both boosts (BM25 per field with identical lengths and
 * frequencies adds up to the same score) instead of storing every slug term twice. The id still
 * has its own exact match.
 */
const ENGINE_BOOST = { displayName: BOOST.displayName, aliases: BOOST.aliases, slug: BOOST.slug + BOOST.id };
/** Engine score at which a non-exact hit maps to half of 0.99. */
const SCORE_HALF = 8;
const NON_EXACT_CEILING = 0.99;

const FOLD: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
// Combining diacritical marks (and their supplements); kana voicing marks are deliberately kept.
const DIACRITICS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u30fc]/u;
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u30fc]+|[\p{L}\p{N}]+/gu;

const PLAIN_ASCII = /^[\x20-\x7e]*$/;
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const HAN = /\p{Script=Han}/u;
const toSimplified: (text: string) => string = OpenCC.Converter({ from: 't', to: 'cn' });

export function normalize(text: string): string {
  // Fast path: printable ASCII has nothing to decompose or fold.
  if (PLAIN_ASCII.test(text)) return text.toLowerCase();
  return (HAN.test(text) ? toSimplified(text) : text)
    .normalize('NFKD')
    .replace(DIACRITICS, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[øæœßłđðþı]/g, (c) => FOLD[c] ?? c);
}

/** Normalised key for exact matching: normalised text with runs of whitespace collapsed. */
export function exactKey(text: string): string {
  return normalize(text).trim().replace(/\s+/g, ' ');
}

export const isCjk = (term: string) => CJK_CHAR.test(term);

/** Word tokens for Latin text; unigrams and bigrams for each CJK run. */
export function tokenize(text: string): string[] {
  const normalized = normalize(text);
  // Most text normalises to ASCII, where letters and digits are exactly [a-z0-9]: a plain split
  // gives the same tokens as the Unicode-aware pattern, several times faster.
  if (ASCII.test(normalized)) return normalized.split(ASCII_SEPARATORS).filter((t) => t.length > 0);
  const out: string[] = [];
  for (const match of normalized.matchAll(TOKEN)) {
    const run = match[0];
    if (!isCjk(run)) {
      out.push(run);
      continue;
    }
    const chars = Array.from(run);
    for (let i = 0; i < chars.length; i++) {
      out.push(chars[i]!);
      if (i + 1 < chars.length) out.push(chars[i]! + chars[i + 1]!);
    }
  }
  return out;
}

/** Prefix matching for Latin terms of three or more characters (shorter ones would match a large part of the vocabulary); never for CJK. */
const usePrefix = (term: string) => term.length >= 3 && !isCjk(term);
/**
 * Fuzzy matching for Latin words: up to 0.2 edits per character, rounded down, at most two (one
 * edit from five characters, two from ten). MiniSearch's own rounding would allow one edit in a
 * three-letter word, which matches much of the vocabulary, and three or more edits make the
 * search of the term tree slow while finding mostly noise. Never for CJK.
 */
export const fuzzyDistance = (term: string): number | false => {
  if (isCjk(term)) return false;
  const edits = Math.min(2, Math.floor(Array.from(term).length * 0.2));
  return edits >= 1 ? edits : false;
};
/** A shared CJK character says less than a shared pair of characters. */
const cjkUnigramsWeighLess = (term: string) => (isCjk(term) && Array.from(term).length === 1 ? 0.5 : 1);

export const mapEngineScore = (s: number) => Math.round((NON_EXACT_CEILING * s) / (s + SCORE_HALF) * 10_000) / 10_000;

interface Candidate {
  entity: Entity;
  score: number;
  field?: SearchField;
  /** A hit of the names index: the entity's place in it. */
  place?: number;
}

/** Score desc, then displayName, then id: a total, locale-independent order. */
const compareCandidates = (a: Candidate, b: Candidate) => compare(a.entity, a.score, b.entity, b.score);

function compare(a: Entity, aScore: number, b: Entity, bScore: number): number {
  if (aScore !== bScore) return bScore - aScore;
  if (a.displayName !== b.displayName) return a.displayName < b.displayName ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The k best candidates without sorting every hit: a large result set costs one comparison per hit. */
class TopK {
  private readonly items: Candidate[] = [];
  constructor(private readonly k: number) {}

  offer(c: Candidate) {
    const items = this.items;
    if (items.length === this.k && compareCandidates(c, items[items.length - 1]!) >= 0) return;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareCandidates(items[mid]!, c) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, c);
    if (items.length > this.k) items.pop();
  }

  /** Whether a candidate would be kept: one that would not need not be made. */
  admits(entity: Entity, score: number): boolean {
    if (this.items.length < this.k) return true;
    const last = this.items[this.items.length - 1]!;
    return compare(entity, score, last.entity, last.score) < 0;
  }

  sorted(): Candidate[] {
    return this.items;
  }
}

/** How a hit was found, by place in the names index (see SearchIndex.compute). */
const UNSEEN = 0;
const BY_NAME = 1;
const BY_DESCRIPTION = 2;

const NAME_FIELDS = ['displayName', 'aliases', 'slug'] as const;
const nameField = (e: Entity, field: string) => (field === 'aliases' ? e.aliases.join(' \n ') : field === 'slug' ? e.slug : e.displayName);
/** Latin with diacritics and folded letters, traditional and simplified Han, kana, digits and punctuation. */
const FINGERPRINT_PROBE = ' Jørn Utzon, Röntgen & Æsop: 設計學校 设计 バウハウス 1919-1933 Straße ';

interface ExactMatch {
  entity: Entity;
  field: 'displayName' | 'aliases';
}

/** A search index's engines in stored form (see SearchIndex.compiled). */
export interface CompiledSearch {
  /** The names index, as TextIndex serialises itself. */
  names: Uint8Array;
  /** The description index, as TextIndex serialises itself. */
  descriptions: Uint8Array;
}

interface IndexOptions {
  /** Recent queries whose results are kept (default 1024; 0 computes every search). */
  searchCacheEntries?: number;
}

export class SearchIndex {
  /**
   * Names, aliases and slug (which carries the id's boost too), with prefix and fuzzy matching.
   * Scores are MiniSearch's for the same search; a MiniSearch index of these fields held every
   * posting in its own Map, several times the memory and the time to build or load at 100,000
   * entities.
   */
  private names!: ExpandingIndex;
  /** Descriptions: whole words only (prefix and fuzzy expansion over prose costs a lot and finds little). */
  private text: TextIndex | undefined;
  /**
   * Normalised displayNames and aliases to the entities that have them. Slugs and ids need no
   * map of their own: they are normalised already, and an id is "<kind>.<slug>", so the entity
   * map answers both (at 100k entities, 200k fewer entries to build and hold). A key most
   * entities have to themselves holds its one match rather than a list of one.
   */
  private readonly exact = new Map<string, ExactMatch | ExactMatch[]>();
  /**
   * Recent results by query. An index belongs to one loaded pack and never changes (a reload
   * builds a new one), so a repeated search (autocomplete, a popular name) is answered from here.
   */
  private readonly recent: LRUCache<string, SearchHit[]> | undefined;
  /** The entities by their place in the names index. */
  private byPlace: Entity[] = [];
  /** Each description's entity's place in the names index, by the description's place in its own. */
  private descriptionPlace = new Uint32Array(0);
  /**
   * Per place in the names index, a search's engine score and how the entity was found, and the
   * places found: a search runs to the end without yielding, so one set serves every search. At
   * 100,000 entities a search's common words match tens of thousands of entities, too many for a
   * Map by id.
   */
  private scratch: { score: Float64Array; found: Uint8Array; touched: number[] } | undefined;

  private constructor(
    private readonly entities: ReadonlyMap<string, Entity>,
    options: IndexOptions,
  ) {
    const cached = options.searchCacheEntries ?? 1024;
    this.recent = cached > 0 ? new LRUCache<string, SearchHit[]>({ max: cached }) : undefined;
  }

  /**
   * Builds the index in time slices that give the event loop back (see steps.ts). With `compiled`
   * (what `compiled()` returned for the same entities and the same code, see compiled.ts) the
   * engines are opened from it instead of being rebuilt.
   */
  static build(entities: ReadonlyMap<string, Entity>, options: IndexOptions = {}, compiled?: CompiledSearch): Promise<SearchIndex> {
    const index = new SearchIndex(entities, options);
    return runAsync(index.fill(compiled)).then(() => index);
  }

  /** Synchronous build, for tests and small packs. */
  static buildSync(entities: ReadonlyMap<string, Entity>, options: IndexOptions = {}, compiled?: CompiledSearch): SearchIndex {
    const index = new SearchIndex(entities, options);
    runSync(index.fill(compiled));
    return index;
  }

  /** The engines in a form `build` can open instead of rebuilding them. */
  compiled(): CompiledSearch {
    return { names: this.names.index.serialize(), descriptions: this.text!.serialize() };
  }

  /**
   * What a compiled index depends on besides the entities: fields, boosts, and how text is
   * normalised and tokenised (probed on text that exercises every rule). A compiled index made
   * under another fingerprint is not opened.
   */
  static fingerprint(): string {
    return JSON.stringify({ fields: NAME_FIELDS, boost: ENGINE_BOOST, probe: tokenize(FINGERPRINT_PROBE), exact: exactKey(FINGERPRINT_PROBE) });
  }

  private *fill(compiled: CompiledSearch | undefined): Steps<void> {
    const tick = ticker(128);
    let names: TextIndex;
    if (compiled) {
      names = TextIndex.deserialize(compiled.names, tokenize);
      this.text = TextIndex.deserialize(compiled.descriptions, tokenize);
    } else {
      names = yield* TextIndex.build(this.entities.values(), { fields: NAME_FIELDS, extract: nameField, id: (e) => e.id, tokenize }, tick);
      this.text = yield* TextIndex.build(described(this.entities), { fields: ['description'], extract: (e) => e.description, id: (e) => e.id, tokenize }, tick);
    }
    this.names = yield* ExpandingIndex.over(names, tick);
    this.byPlace = Array.from({ length: names.documentCount }, (_, at) => this.entities.get(names.idAt(at))!);
    this.descriptionPlace = places(this.text, names);
    const add = (key: string, match: ExactMatch) => {
      const known = this.exact.get(key);
      if (known === undefined) this.exact.set(key, match);
      else if (Array.isArray(known)) known.push(match);
      else this.exact.set(key, [known, match]);
    };
    for (const e of this.entities.values()) {
      // Added in priority order: when the query equals several fields, the first one names the
      // match, and an entity is listed once per key.
      const name = exactKey(e.displayName);
      if (name) add(name, { entity: e, field: 'displayName' });
      for (const [i, alias] of e.aliases.entries()) {
        const key = exactKey(alias);
        if (key && key !== name && !e.aliases.slice(0, i).some((earlier) => exactKey(earlier) === key)) add(key, { entity: e, field: 'aliases' });
      }
      if (tick()) yield;
    }
  }

  /** The hits for a query; callers share the returned array and must not change it. */
  search(query: SearchQuery): SearchHit[] {
    if (!this.recent) return this.compute(query);
    const key = JSON.stringify([exactKey(query.q), query.scope ? [...new Set(query.scope)].sort() : [], query.limit]);
    const known = this.recent?.get(key);
    if (known) return known;
    const hits = this.compute(query);
    this.recent?.set(key, hits);
    return hits;
  }

  private compute(query: SearchQuery): SearchHit[] {
    const scope = query.scope && query.scope.length > 0 ? new Set<string>(query.scope) : undefined;
    const top = new TopK(query.limit);
    const exact = new Set<Entity>();
    const key = exactKey(query.q);
    const offerExact = (e: Entity | undefined, field: SearchField) => {
      if (!e || (scope && !scope.has(e.kind)) || exact.has(e)) return;
      exact.add(e);
      top.offer({ entity: e, score: 1, field });
    };
    // In priority order: an entity the query names by displayName or alias is not matched again by slug or id.
    const byName = this.exact.get(key);
    for (const { entity, field } of byName === undefined ? [] : Array.isArray(byName) ? byName : [byName]) offerExact(entity, field);
    if (key) {
      for (const kind of ENTITY_KINDS) offerExact(this.entities.get(`${kind}.${key}`), 'slug');
      offerExact(this.entities.get(key), 'id');
    }
    // The engine score of a hit is its name score plus its description score.
    const inScope = scope ? (id: string) => scope.has(this.entities.get(id)!.kind) : undefined;
    const terms = this.names.queryTerms(query.q, { prefix: usePrefix, fuzzy: fuzzyDistance, boostTerm: cjkUnigramsWeighLess });
    const nameHits = this.names.index.matchTerms(terms, { boost: ENGINE_BOOST, filter: inScope });
    const descriptionHits = this.text!.matchTerms(terms.map(wholeTerm), { boost: { description: BOOST.description }, filter: inScope });
    const n = this.byPlace.length;
    const { score, found, touched } = (this.scratch ??= { score: new Float64Array(n), found: new Uint8Array(n), touched: [] });
    // A search that threw midway would have left its marks.
    for (const at of touched) {
      score[at] = 0;
      found[at] = UNSEEN;
    }
    touched.length = 0;
    for (let i = 0; i < nameHits.ordinals.length; i++) {
      const at = nameHits.ordinals[i]!;
      score[at] = nameHits.scores[i]!;
      found[at] = BY_NAME;
      touched.push(at);
    }
    for (let i = 0; i < descriptionHits.ordinals.length; i++) {
      const at = this.descriptionPlace[descriptionHits.ordinals[i]!]!;
      if (found[at] === UNSEEN) {
        found[at] = BY_DESCRIPTION;
        touched.push(at);
      }
      score[at]! += descriptionHits.scores[i]!;
    }
    for (const at of touched) {
      const entity = this.byPlace[at]!;
      const mapped = mapEngineScore(score[at]!);
      const how = found[at];
      score[at] = 0;
      found[at] = UNSEEN;
      if ((exact.size === 0 || !exact.has(entity)) && top.admits(entity, mapped)) top.offer(how === BY_NAME ? { entity, score: mapped, place: at } : { entity, score: mapped, field: 'description' });
    }
    touched.length = 0;
    // Only the hits kept need to know which name field matched.
    const matched = named(terms);
    for (const c of top.sorted()) if (c.field === undefined) c.field = NAME_FIELDS.find((f) => matched.some((t) => this.names.index.holds(c.place!, f, t)));
    return top.sorted().map((c) => this.hit(c.entity, c.score, c.field));
  }

  private hit(e: Entity, score: number, matchedField: SearchField | undefined): SearchHit {
    const h: SearchHit = { id: e.id, kind: e.kind, displayName: e.displayName, slug: e.slug, score };
    if (matchedField) h.matchedField = matchedField;
    return h;
  }
}

/**
 * Each description's place in the names index, by its place in the description index. Both list
 * the entities in the same order, the description index only those with a description, so one
 * walk pairs them; a Map by id pairs them otherwise.
 */
function places(descriptions: TextIndex, names: TextIndex): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(descriptions.documentCount);
  let j = 0;
  for (let at = 0; at < names.documentCount && j < out.length; at++) if (descriptions.idAt(j) === names.idAt(at)) out[j++] = at;
  if (j === out.length) return out;
  const placeOf = new Map<string, number>();
  for (let at = 0; at < names.documentCount; at++) placeOf.set(names.idAt(at), at);
  for (let d = 0; d < out.length; d++) out[d] = placeOf.get(descriptions.idAt(d))!;
  return out;
}

/** Entities with a description: the others stay out of the description index, so they do not count in its document total. */
function* described(entities: ReadonlyMap<string, Entity>): Generator<Entity> {
  for (const e of entities.values()) if (e.description) yield e;
}

/** Descriptions match whole words only: a query term without its expansions. */
const wholeTerm = (t: QueryTerm): QueryTerm => ({ ...t, expansions: t.expansions.slice(0, 1) });

/** Every index term the query's terms stand for. */
function named(terms: readonly QueryTerm[]): string[] {
  const out = new Set<string>();
  for (const t of terms) for (const e of t.expansions) out.add(e.term);
  return [...out];
}
