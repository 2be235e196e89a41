import { z } from 'zod';
import { normalize, withoutQuotations } from '../classics/text.js';
import { Prefilter } from '../platform/literals.js';
import type { TextClassifier } from '../classics/classifier.js';

/** The Gate's rule file (packs/classics/core/gate-rules.json). */
export const GateRulesFile = z.object({
  version: z.string(),
  notes: z.string().optional(),
  aboutClassics: z.string().min(1),
  /**
   * Spans blanked out before any rule is tried: a disclaimer ("not asking for a reading"), a report
   * about someone else ("a friend died by suicide"), a question about what a text is saying. Only
   * the span goes, so a real request elsewhere in the same text is still judged.
   */
  aside: z.array(z.string().min(1)).optional(),
  /**
   * Spelling variants and common misspellings, rewritten to one form before anything else is
   * matched ("hexagarm", "i-ching", "lao-tzu" → "hexagram", "i ching", "laozi"), so that every rule,
   * and the test for naming a classic, sees one spelling. `as` is literal text, not a replacement pattern.
   */
  spellings: z.array(z.object({ pattern: z.string().min(1), as: z.string() })).optional(),
  /** Paraphrases of a misreading, as patterns: each counts like one of that misreading's literal assertions. */
  misreadingPatterns: z.array(z.object({ misreading: z.string().min(1), patterns: z.array(z.string().min(1)).min(1) })).optional(),
  /** Acting on a reading ("所以…可以", "so I can", "help me argue"): with a concept named, a misreading used as a premise. */
  misreadingJustification: z.string().min(1).optional(),
  /** A request to build on what was just said ("在这个基础上帮我写"): it blocks only a stated misreading, never a concept's bare name. */
  misreadingPremise: z.string().min(1).optional(),
  /** A request for a personal decision, verdict or service ("should I", "帮我", "你看行不行"). */
  personalRequest: z.string().min(1).optional(),
  /** Asking what a text says ("what does … say", "什么意思"): a question about the classics. */
  aboutText: z.string().min(1).optional(),
  /**
   * Further ways a text is anchored in the classics without naming one: a quoted line set beside a
   * modern idea (“父为子隐，子为父隐”这句和现代的…). Like the names in `aboutClassics`, they only spare a
   * plain question from an `unanchored` domain; a personal request in the domain is still blocked.
   */
  anchors: z.array(z.string().min(1)).optional(),
  /**
   * Asking how to live with something ("how do I cope", "怎么面对", "放下"): a request for perspective,
   * never a professional question, even when it names no classic.
   */
  reflective: z.string().min(1).optional(),
  /**
   * Category vocabularies: a personal request inside one of these domains is that category's request.
   * With `unanchored`, so is any question in the domain that names no classic, no concept of the
   * classics and is not reflective ("感冒了吃头孢有用吗？"): it is not a question about the texts.
   */
  domains: z
    .array(z.object({ id: z.string().min(1), category: z.string().min(1), pattern: z.string().min(1), unanchored: z.boolean().optional() }))
    .optional(),
  categories: z.record(z.string(), z.object({ message_en: z.string().min(1), message_zh: z.string().min(1) })),
  /**
   * Signals that block together, not alone: a text showing `threshold` or more of a category's
   * signals (farewell letters written, a pet rehomed, belongings given away, a passage wanted for
   * the end) is that category's case, whichever of them it shows and however it words each. One
   * such signal is an ordinary thing to write about; two or three together are the pattern the
   * crisis rules otherwise have to spell out pair by pair.
   */
  signals: z
    .array(
      z.object({
        id: z.string().min(1),
        category: z.string().min(1),
        threshold: z.number().int().min(2),
        notes: z.string().optional(),
        patterns: z.array(z.object({ id: z.string().min(1), pattern: z.string().min(1) })).min(2),
        /** Contexts that explain the same signals otherwise (a move abroad: the pet rehomed, the letters to old friends). */
        unless: z.array(z.string().min(1)).optional(),
      }),
    )
    .optional(),
  rules: z.array(
    z.object({
      id: z.string().min(1),
      category: z.string().min(1),
      /** What family of requests the rule covers, for the people who maintain it. */
      notes: z.string().optional(),
      patterns: z.array(z.string().min(1)).min(1),
      unless: z.array(z.string().min(1)).optional(),
      exemptIfAboutClassics: z.boolean().optional(),
    }),
  ),
});
export type GateRules = z.infer<typeof GateRulesFile>;

/** Every regular expression of a rule file, named by where it sits, so that the pack check can compile each. */
export function patternsOf(rules: GateRules): { where: string; pattern: string }[] {
  const single = (['aboutClassics', 'misreadingJustification', 'misreadingPremise', 'personalRequest', 'aboutText', 'reflective'] as const).flatMap((key) =>
    rules[key] ? [{ where: key, pattern: rules[key]! }] : [],
  );
  return [
    ...single,
    ...(rules.aside ?? []).map((pattern, i) => ({ where: `aside[${i}]`, pattern })),
    ...(rules.anchors ?? []).map((pattern, i) => ({ where: `anchors[${i}]`, pattern })),
    ...(rules.spellings ?? []).map((s, i) => ({ where: `spellings[${i}]`, pattern: s.pattern })),
    ...(rules.domains ?? []).map((d) => ({ where: `domain ${d.id}`, pattern: d.pattern })),
    ...(rules.signals ?? []).flatMap((g) => [
      ...g.patterns.map((p) => ({ where: `signals ${g.id} ${p.id}`, pattern: p.pattern })),
      ...(g.unless ?? []).map((pattern) => ({ where: `signals ${g.id} unless`, pattern })),
    ]),
    ...(rules.misreadingPatterns ?? []).flatMap((m) => m.patterns.map((pattern) => ({ where: `misreadingPatterns ${m.misreading}`, pattern }))),
    ...rules.rules.flatMap((r) => [...r.patterns, ...(r.unless ?? [])].map((pattern) => ({ where: `rule ${r.id}`, pattern }))),
  ];
}

export interface MisreadingRule {
  id: string;
  assertions: string[];
  /** Names of the classical concept the misreading distorts (无为, wu wei, 孝, filial piety). */
  triggers: string[];
  correction_zh: string;
  correction_en: string;
}

export type GateCategory = 'crisis' | 'medical' | 'legal' | 'financial' | 'psychological' | 'divination' | 'prediction' | 'misreading' | 'out_of_scope';

export interface GateVerdict {
  allowed: boolean;
  category: GateCategory | null;
  ruleId: string | null;
  message: string | null;
}

/** A compiled pattern's test: it looks for the pattern's required strings before it runs it (platform/literals). */
type Test = (text: string) => boolean;
type Replacement = { pattern: RegExp; may: Test };

interface CompiledRule {
  id: string;
  category: GateCategory;
  patterns: Test[];
  unless: Test[];
  exemptIfAboutClassics: boolean;
}

export interface Gate {
  evaluate(text: string, lang: 'zh' | 'en'): GateVerdict;
  /**
   * The text as the rules and the learned model read it: normalised, spellings made one, and the
   * `aside` spans (a disclaimer, a report about someone else) blanked. The model is trained on
   * texts prepared the same way.
   */
  prepare(text: string): string;
  version: string;
}

const QUESTION_ZH = /[?]|(吗|呢|么)\s*[.!。！]?$|是不是|是否|有没有|难道|怎么理解|如何理解|什么意思|怎么看|何谓|^(什么是|为什么|为何|怎么|如何|哪些)/;
const QUESTION_EN = /\?\s*$|^(is|are|does|do|did|what|how|why|when|where|which|who|can|could|should|would|was|were|isn't|doesn't)\b/;

/**
 * A sincere question about a misreading ("is wu wei the same as laziness?") is answered with the
 * correction; only the misreading asserted as fact is blocked.
 */
export const isQuestion = (normalized: string) => QUESTION_ZH.test(normalized) || QUESTION_EN.test(normalized.trim());

const ALLOWED: GateVerdict = { allowed: true, category: null, ruleId: null, message: null };
/** An allow the rules reached on purpose (see byRules); callers see it as ALLOWED. */
const SPARED: GateVerdict = { ...ALLOWED };

/** The rule id a verdict of the learned model carries: no rule matched, the model judged. */
export const MODEL_RULE_ID = 'gate-model';

/**
 * Compiles the rules (and the packs' misreadings) once at load. The returned evaluate() is
 * pure: the same text always gets the same verdict.
 *
 * With a learned model (core/gate-model.json), a text the rules allow is blocked still when the
 * model gives `allow` less than its threshold's probability, in the category it finds likeliest:
 * the model catches wordings no rule spells out. A text a rule blocks is allowed when the model
 * gives `allow` at least its `overrule` probability: a pattern matches words, and the words of a
 * crisis or a diagnosis also fill a term paper on 杀身成仁 or a grief long past that a reader has
 * worked through. In the same way a text the rules allow on purpose (a request in a professional
 * domain that asks what a text says) is blocked only when the model gives `allow` at most
 * 1 - `overrule`. A class with its own bar in `classThresholds` (crisis) blocks as soon as its
 * probability reaches it, whatever the rules allowed. Every other rule verdict stands, with its
 * exact explanation (a misreading's correction).
 */
export function compileGate(rules: GateRules, misreadings: MisreadingRule[], classifier?: TextClassifier): Gate {
  const prefilter = new Prefilter();
  const compile = (pattern: string): Test => prefilter.test(new RegExp(pattern, 'u'));
  // Global patterns: every occurrence is replaced, not only the first.
  const replacement = (pattern: string): Replacement => {
    const re = new RegExp(pattern, 'gu');
    return { pattern: re, may: prefilter.may(re) };
  };
  const about = compile(rules.aboutClassics);
  const compiled: CompiledRule[] = rules.rules.map((r) => ({
    id: r.id,
    category: r.category as GateCategory,
    patterns: r.patterns.map(compile),
    unless: (r.unless ?? []).map(compile),
    exemptIfAboutClassics: r.exemptIfAboutClassics ?? false,
  }));
  const aside = (rules.aside ?? []).map(replacement);
  const spellings = (rules.spellings ?? []).map((s) => ({ ...replacement(s.pattern), as: s.as }));
  // A misreading is recognised by its literal assertions and by the rule file's paraphrase patterns.
  const byId = new Map(misreadings.map((m) => [m.id, m]));
  // A literal is only searched for in a text that contains its opening pair of characters (see pairsOf).
  const assertions: Assertion[] = misreadings.flatMap((m) =>
    m.assertions.map((a) => normalize(a).trim()).filter((a) => a.length > 0).map((a) => ({ test: (n: string) => n.includes(a), rule: m, pair: pairKey(a, 0) })),
  );
  for (const { misreading, patterns } of rules.misreadingPatterns ?? []) {
    const rule = byId.get(misreading);
    if (!rule) throw new Error(`gate-rules.json: misreadingPatterns names an unknown misreading ${misreading}`);
    for (const p of patterns) assertions.push({ test: compile(p), rule });
  }
  // One-character names (孝, 礼, 空) count here: the act-on-it pattern must match as well.
  const triggers = misreadings
    .flatMap((m) => m.triggers.map((t) => ({ text: normalize(t).trim(), rule: m })))
    .filter((t) => t.text.length > 0)
    .map((t) => ({ ...t, test: termMatcher(t.text) }));
  const justification = rules.misreadingJustification ? compile(rules.misreadingJustification) : undefined;
  const premise = rules.misreadingPremise ? compile(rules.misreadingPremise) : undefined;
  const personalRequest = rules.personalRequest ? compile(rules.personalRequest) : undefined;
  const aboutText = rules.aboutText ? compile(rules.aboutText) : undefined;
  const reflective = rules.reflective ? compile(rules.reflective) : undefined;
  const signals = (rules.signals ?? []).map((g) => ({
    id: g.id,
    category: g.category as GateCategory,
    threshold: g.threshold,
    tests: g.patterns.map((p) => compile(p.pattern)),
    unless: (g.unless ?? []).map(compile),
  }));
  const domains = (rules.domains ?? []).map((d) => ({
    id: d.id,
    category: d.category as GateCategory,
    test: compile(d.pattern),
    unanchored: d.unanchored ?? false,
  }));
  // A text is anchored in the classics when it names one (aboutClassics) or one of their concepts by a
  // name long enough to mean something on its own (无为, filial piety; not 学 or 和). Compiled once.
  const concepts = [...new Set(triggers.map((t) => t.text))].filter((t) => (/\p{Script=Han}/u.test(t) ? t.length >= 2 : t.length >= 4));
  const anchored = compile([rules.aboutClassics, ...(rules.anchors ?? []), ...concepts.map((t) => (/\p{Script=Han}/u.test(t) ? escape(t) : `\\b${escape(t)}\\b`))].join('|'));
  const message = (category: GateCategory, lang: 'zh' | 'en') => {
    const c = rules.categories[category];
    return c ? (lang === 'zh' ? c.message_zh : c.message_en) : category;
  };

  return {
    version: rules.version,
    prepare,
    evaluate(text: string, lang: 'zh' | 'en'): GateVerdict {
      const n = prepare(text);
      const verdict = byRules(n, lang);
      if (!classifier) return verdict === SPARED ? ALLOWED : verdict;
      const { probabilities } = classifier.predict(n);
      const allow = probabilities.allow!;
      const { overrule, classThresholds = {} } = classifier.meta;
      if (!verdict.allowed) return overrule !== undefined && allow >= overrule ? ALLOWED : verdict;
      const block = (category: GateCategory): GateVerdict => ({ allowed: false, category, ruleId: MODEL_RULE_ID, message: message(category, lang) });
      // A crisis missed costs far more than a question taken for one, which gets crisis lines it did not need.
      for (const [c, bar] of Object.entries(classThresholds)) if (c !== 'allow' && probabilities[c]! >= bar) return block(c as GateCategory);
      // The rules' deliberate allow is overruled only as surely as their blocks are.
      if (allow >= (verdict === SPARED && overrule !== undefined ? 1 - overrule : classifier.threshold)) return ALLOWED;
      let category: GateCategory | undefined;
      for (const c of classifier.classes) if (c !== 'allow' && (!category || probabilities[c]! > probabilities[category]!)) category = c as GateCategory;
      return block(category!);
    },
  };

  function prepare(text: string): string {
    return setAside(respell(normalize(text), spellings), aside);
  }

  /**
   * The rules' verdict on a prepared text. SPARED is an allow the rules reached on purpose: a
   * rule's pattern matched and its exception held, or a request in a professional domain asks
   * what a text says, or a misreading is asked about rather than asserted.
   */
  function byRules(n: string, lang: 'zh' | 'en'): GateVerdict {
    let spared = false;
    for (const rule of compiled) {
      if (rule.category === 'misreading' || rule.category === 'out_of_scope') continue;
      const state = matches(rule, n, about);
      if (state === 'match') return { allowed: false, category: rule.category, ruleId: rule.id, message: message(rule.category, lang) };
      spared ||= state === 'excepted';
    }
    for (const group of signals) {
      let shown = 0;
      for (const test of group.tests) if (test(n) && ++shown >= group.threshold) break;
      if (shown < group.threshold) continue;
      if (!group.unless.some((test) => test(n))) return { allowed: false, category: group.category, ruleId: group.id, message: message(group.category, lang) };
      spared = true;
    }
    // Second layer: a personal request (a decision, a verdict, a service) inside a professional
    // or divinatory domain, unless the question asks what a text says; in the professional
    // domains, also a plain question that never touches the classics.
    {
      const domain = domains.find((d) => d.test(n));
      const asks = domain && (personalRequest?.(withoutQuotations(n)) || (domain.unanchored && isQuestion(n) && !reflective?.(n) && !anchored(n)));
      if (asks && !aboutText?.(n)) return { allowed: false, category: domain.category, ruleId: domain.id, message: message(domain.category, lang) };
      spared ||= Boolean(asks);
    }
    // A misreading asserted as fact, or a concept of the classics used to justify an act.
    let pairs: Set<number> | undefined;
    const findAssertion = () => {
      pairs ??= pairsOf(n);
      const seen = pairs;
      return assertions.find((a) => (a.pair === undefined || seen.has(a.pair)) && a.test(n));
    };
    const questioned = isQuestion(n);
    const asserted = questioned ? undefined : findAssertion();
    const justified = !asserted && justification?.(n) ? (findAssertion() ?? triggers.find((t) => t.test(n))) : undefined;
    // "X, right? Write my reading notes on that basis" asks for work resting on X, so X is
    // asserted even inside a question; "王阳明讲知行合一，在这个基础上帮我写" rests on no misreading.
    const premised = !asserted && !justified && premise?.(n) ? findAssertion() : undefined;
    {
      const hit = asserted ?? justified ?? premised;
      if (hit) {
        const correction = lang === 'zh' ? hit.rule.correction_zh : hit.rule.correction_en;
        return { allowed: false, category: 'misreading', ruleId: hit.rule.id, message: `${message('misreading', lang)} ${correction}` };
      }
      spared ||= questioned && findAssertion() !== undefined;
    }
    for (const rule of compiled) {
      if (rule.category !== 'out_of_scope') continue;
      const state = matches(rule, n, about);
      if (state === 'match') return { allowed: false, category: rule.category, ruleId: rule.id, message: message(rule.category, lang) };
      spared ||= state === 'excepted';
    }
    return spared ? SPARED : ALLOWED;
  }
}

interface Assertion {
  test: (normalized: string) => boolean;
  rule: MisreadingRule;
  /** For a literal: its first two UTF-16 units (pairKey); a text without that pair cannot contain it. */
  pair?: number;
}

/** Two UTF-16 code units as one number; a one-unit literal pairs its unit with 0. */
const pairKey = (s: string, i: number) => s.charCodeAt(i) * 65536 + (i + 1 < s.length ? s.charCodeAt(i + 1) : 0);

/** Every pair of adjacent code units in a text, and every single unit (for one-unit literals). */
function pairsOf(n: string): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < n.length; i++) {
    const c = n.charCodeAt(i) * 65536;
    out.add(c);
    if (i + 1 < n.length) out.add(c + n.charCodeAt(i + 1));
  }
  return out;
}

/** Every spelling variant becomes its one form (a function replacer, so `$` in `as` stays literal). */
function respell(n: string, spellings: (Replacement & { as: string })[]): string {
  for (const s of spellings) if (s.may(n)) n = n.replace(s.pattern, () => s.as);
  return n;
}

/**
 * Typographic apostrophes become plain ones (phone keyboards type "don’t"), then every `aside` span
 * is blanked with a space, so that word boundaries around it survive.
 */
function setAside(n: string, aside: Replacement[]): string {
  n = n.replace(/[\u2018\u2019\u02bc`]/g, "'");
  for (const p of aside) if (p.may(n)) n = n.replace(p.pattern, ' ');
  return n;
}

const escape = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A concept name as a test, compiled once: Han names anywhere, others as whole words. */
function termMatcher(term: string): (n: string) => boolean {
  if (/\p{Script=Han}/u.test(term)) return (n) => n.includes(term);
  const re = new RegExp(`\\b${escape(term)}\\b`);
  return (n) => re.test(n);
}

/** Whether a rule blocks a text: its pattern matches, or matches but an exception (unless, about the classics) holds. */
function matches(rule: CompiledRule, n: string, about: Test): 'none' | 'excepted' | 'match' {
  if (!rule.patterns.some((test) => test(n))) return 'none';
  if (rule.unless.some((test) => test(n))) return 'excepted';
  if (rule.exemptIfAboutClassics && about(n)) return 'excepted';
  return 'match';
}

export interface SelfTestResult {
  passed: boolean;
  total: number;
  failures: { id: string; text: string; expected: 'block' | 'allow'; got: GateVerdict }[];
}

/** Every fixture shipped with the packs must get its expected verdict; /ready depends on it. */
export function selfTest(gate: Gate, fixtures: { id: string; text: string; lang: 'zh' | 'en'; expect: 'block' | 'allow' }[]): SelfTestResult {
  const failures: SelfTestResult['failures'] = [];
  for (const f of fixtures) {
    const got = gate.evaluate(f.text, f.lang);
    if ((f.expect === 'block') === got.allowed) failures.push({ id: f.id, text: f.text, expected: f.expect, got });
  }
  return { passed: fixtures.length > 0 && failures.length === 0, total: fixtures.length, failures };
}
