/**
 * Literal prefilters for regular expressions. The Gate, the stories the classics do not record and
 * the question matchers run hundreds of patterns over every text, and almost none of them match:
 * a pattern such as `药(?:也|都)?攒(?:得|够)` can only match a text that contains 药攒, 药也攒 or 药都攒.
 * Checking for those few strings costs a fraction of running the expression, so each pattern is
 * parsed once (with regexpp, the parser ESLint uses) and the strings at least one of which every
 * match must contain are worked out from its syntax tree; a text with none of them is answered
 * "no match" without running the expression.
 *
 * The analysis is conservative: wherever it cannot be sure (character classes too large to list,
 * `.`, `\w`, optional parts, negative lookarounds, back references, the `i` flag) it asks for
 * nothing, so a prefilter never turns a match into a miss. Each element of a sequence yields
 * either the exact strings it can match (a character, a small class, a group of alternatives of
 * such, a fixed repetition) or only a set that must occur; runs of exact elements are joined into
 * longer strings (药 + (?:也|都)? + 攒 gives 药攒, 药也攒, 药都攒), and the most selective set of the
 * sequence is kept. A set with the empty string in it requires nothing and is dropped.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { StringTrie } from './string-trie.js';

/** The most strings a set of exact matches may hold before it is given up. */
const EXACT_LIMIT = 48;
/** The most strings a required set may hold (beyond it a pattern is simply run). */
const CHECK_LIMIT = 4096;
/** The largest character class that is listed character by character. */
const CLASS_LIMIT = 12;

interface Info {
  /** Every string the node can match, when they are few; null otherwise. */
  exact: string[] | null;
  /** Strings at least one of which every match of the node contains; null when nothing is known. */
  need: string[] | null;
}

const NOTHING: Info = { exact: null, need: null };
const EMPTY: Info = { exact: [''], need: null };

const parser = new RegExpParser({ ecmaVersion: 2025 });

/**
 * The strings at least one of which any match of the pattern contains, or undefined when no such
 * set is known (or it is too large to be worth checking). Patterns that do not parse get none.
 */
export function requiredLiterals(source: string, flags = '', limit = CHECK_LIMIT): string[] | undefined {
  if (flags.includes('i')) return undefined;
  let pattern: AST.Pattern;
  try {
    pattern = parser.parsePattern(source, 0, source.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
  } catch {
    return undefined;
  }
  const need = requirement(disjunction(pattern.alternatives));
  return need && need.length <= limit ? need : undefined;
}

/**
 * Tests for many patterns over the same texts, each of which first looks for its pattern's
 * required strings. All the strings of all the patterns are looked for in one pass over a text,
 * walking a trie of them (by UTF-16 code unit) from each position, and the result is kept for
 * that text: a run of tests over one text pays for one pass, however many patterns there are.
 */
export class Prefilter {
  private readonly trie = new StringTrie();
  private sets = 0;
  private scanned: string | undefined;
  private present = new Uint8Array(0);

  constructor(private readonly limit = CHECK_LIMIT) {}

  /** `re.test`, answered false without running `re` on a text that lacks its required strings. */
  test(re: RegExp): (text: string) => boolean {
    if (re.global || re.sticky) throw new Error('Prefilter.test: a global or sticky expression keeps state between tests');
    const set = this.register(re);
    if (set === undefined) return (text) => re.test(text);
    return (text) => this.has(text, set) && re.test(text);
  }

  /** Whether `re` can match the text at all, by its required strings alone: for a global replace. */
  may(re: RegExp): (text: string) => boolean {
    const set = this.register(re);
    if (set === undefined) return () => true;
    return (text) => this.has(text, set);
  }

  private register(re: RegExp): number | undefined {
    const need = requiredLiterals(re.source, re.flags, this.limit);
    if (!need) return undefined;
    // A text scanned before this set existed has no answer for it.
    this.scanned = undefined;
    const set = this.sets++;
    for (const literal of need) this.trie.add(literal, set);
    return set;
  }

  private has(text: string, set: number): boolean {
    if (text !== this.scanned) {
      const present = this.present.length === this.sets ? this.present.fill(0) : new Uint8Array(this.sets);
      this.trie.forEachMatch(text, (set) => (present[set] = 1));
      this.present = present;
      this.scanned = text;
    }
    return this.present[set] === 1;
  }
}

/** The node's required set: its own, or its exact strings when none of them is empty. */
function requirement(info: Info): string[] | null {
  if (info.need) return info.need;
  if (info.exact && !info.exact.includes('')) return minimal(info.exact);
  return null;
}

function disjunction(alternatives: readonly AST.Alternative[]): Info {
  const infos = alternatives.map((a) => sequence(a.elements));
  const few = infos.every((i) => i.exact) && infos.reduce((sum, i) => sum + i.exact!.length, 0) <= EXACT_LIMIT;
  const exact = few ? unique(infos.flatMap((i) => i.exact!)) : null;
  const needs = infos.map(requirement);
  const need = needs.every((n) => n) ? minimal(needs.flatMap((n) => n!)) : null;
  return { exact, need };
}

function sequence(elements: readonly AST.Element[]): Info {
  const candidates: string[][] = [];
  let run: string[] = [''];
  let whole = true;
  const close = () => {
    if (!run.includes('')) candidates.push(minimal(run));
    run = [''];
  };
  for (const element of elements) {
    const info = element_(element);
    if (info.exact) {
      // One string (a character, most often): appended to each, the run's strings stay distinct.
      const one = info.exact.length === 1 ? info.exact[0]! : undefined;
      if (one !== undefined) run = run.map((a) => a + one);
      else if (run.length * info.exact.length <= EXACT_LIMIT) run = unique(run.flatMap((a) => info.exact!.map((b) => a + b)));
      else {
        // Too many combinations to carry on: what came before is one requirement, this starts the next.
        whole = false;
        close();
        run = info.exact;
      }
      continue;
    }
    whole = false;
    close();
    const need = requirement(info);
    if (need) candidates.push(need);
  }
  const exact = whole ? run : null;
  close();
  return { exact, need: best(candidates) };
}

function element_(node: AST.Element): Info {
  switch (node.type) {
    case 'Character':
      return { exact: [String.fromCodePoint(node.value)], need: null };
    case 'CharacterClass':
      return characterClass(node);
    case 'Group':
      // A group with modifiers ((?i:...)) may match other cases than it spells.
      return node.modifiers ? NOTHING : disjunction(node.alternatives);
    case 'CapturingGroup':
      return disjunction(node.alternatives);
    case 'Quantifier':
      return quantifier(node);
    case 'Assertion':
      // Boundaries and lookarounds match no characters of their own.
      return EMPTY;
    default:
      // `.`, `\d`, `\w`, `\p{...}`, back references: anything.
      return NOTHING;
  }
}

function characterClass(node: AST.CharacterClass): Info {
  if (node.negate || node.unicodeSets) return NOTHING;
  const chars: string[] = [];
  for (const e of node.elements) {
    if (e.type === 'Character') chars.push(String.fromCodePoint(e.value));
    else if (e.type === 'CharacterClassRange' && e.max.value - e.min.value < CLASS_LIMIT) {
      for (let c = e.min.value; c <= e.max.value; c++) chars.push(String.fromCodePoint(c));
    } else return NOTHING;
    if (chars.length > CLASS_LIMIT) return NOTHING;
  }
  return { exact: unique(chars), need: null };
}

function quantifier(node: AST.Quantifier): Info {
  const inner = element_(node.element);
  if (node.min === 0) {
    // Optional: nothing, or (when small and at most once) one of its strings. Repeated any number
    // of times it stands for no strings in particular, and it ends a run (x, a*, y need not be xy).
    if (node.max === 1 && inner.exact) return { exact: unique(['', ...inner.exact]), need: null };
    return NOTHING;
  }
  if (node.min === node.max && inner.exact && inner.exact.length ** node.min <= EXACT_LIMIT) {
    let out = [''];
    for (let i = 0; i < node.min; i++) out = unique(out.flatMap((a) => inner.exact!.map((b) => a + b)));
    return { exact: out, need: null };
  }
  // At least once: whatever one occurrence needs.
  return { exact: null, need: requirement(inner) };
}

/** The most selective of a sequence's required sets: longest shortest string, then fewest strings. */
function best(candidates: string[][]): string[] | null {
  let chosen: string[] | null = null;
  let chosenShortest = -1;
  for (const c of candidates) {
    const shortest = Math.min(...c.map((s) => s.length));
    if (shortest > chosenShortest || (shortest === chosenShortest && chosen && c.length < chosen.length)) {
      chosen = c;
      chosenShortest = shortest;
    }
  }
  return chosen;
}

/**
 * Drops every string that contains another of the set: a text with the longer one has the
 * shorter. Only a smaller set to compare in `best`; a large set (a long list of alternatives) is
 * kept whole, since comparing each pair of it would cost more than its extra strings in the trie.
 */
function minimal(strings: string[]): string[] {
  if (strings.length > 64) return unique(strings);
  const sorted = unique(strings).sort((a, b) => a.length - b.length);
  const out: string[] = [];
  for (const s of sorted) if (!out.some((kept) => s.includes(kept))) out.push(s);
  return out;
}

const unique = (strings: string[]) => [...new Set(strings)];
