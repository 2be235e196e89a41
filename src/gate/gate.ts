import { z } from 'zod';
import { normalize } from '../classics/text.js';

/** The Gate's rule file (packs/classics/core/gate-rules.json). */
export const GateRulesFile = z.object({
  version: z.string(),
  notes: z.string().optional(),
  aboutClassics: z.string().min(1),
  /** Acting on a reading ("所以…可以", "so I can", "help me argue"): with a concept named, a misreading used as a premise. */
  misreadingJustification: z.string().min(1).optional(),
  /** A request for a personal decision, verdict or service ("should I", "帮我", "你看行不行"). */
  personalRequest: z.string().min(1).optional(),
  /** Asking what a text says ("what does … say", "什么意思"): a question about the classics. */
  aboutText: z.string().min(1).optional(),
  /** Category vocabularies: a personal request inside one of these domains is that category's request. */
  domains: z.array(z.object({ id: z.string().min(1), category: z.string().min(1), pattern: z.string().min(1) })).optional(),
  categories: z.record(z.string(), z.object({ message_en: z.string().min(1), message_zh: z.string().min(1) })),
  rules: z.array(
    z.object({
      id: z.string().min(1),
      category: z.string().min(1),
      patterns: z.array(z.string().min(1)).min(1),
      unless: z.array(z.string().min(1)).optional(),
      exemptIfAboutClassics: z.boolean().optional(),
    }),
  ),
});
export type GateRules = z.infer<typeof GateRulesFile>;

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

interface CompiledRule {
  id: string;
  category: GateCategory;
  patterns: RegExp[];
  unless: RegExp[];
  exemptIfAboutClassics: boolean;
}

export interface Gate {
  evaluate(text: string, lang: 'zh' | 'en'): GateVerdict;
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

/**
 * Compiles the rules (and the packs' misreadings) once at load. The returned evaluate() is
 * pure: the same text always gets the same verdict.
 */
export function compileGate(rules: GateRules, misreadings: MisreadingRule[]): Gate {
  const about = new RegExp(rules.aboutClassics, 'u');
  const compiled: CompiledRule[] = rules.rules.map((r) => ({
    id: r.id,
    category: r.category as GateCategory,
    patterns: r.patterns.map((p) => new RegExp(p, 'u')),
    unless: (r.unless ?? []).map((p) => new RegExp(p, 'u')),
    exemptIfAboutClassics: r.exemptIfAboutClassics ?? false,
  }));
  const assertions = misreadings.flatMap((m) => m.assertions.map((a) => ({ text: normalize(a).trim(), rule: m })));
  // One-character names (孝, 礼, 空) count here: the act-on-it pattern must match as well.
  const triggers = misreadings.flatMap((m) => m.triggers.map((t) => ({ text: normalize(t).trim(), rule: m }))).filter((t) => t.text.length > 0);
  const justification = rules.misreadingJustification ? new RegExp(rules.misreadingJustification, 'u') : undefined;
  const personalRequest = rules.personalRequest ? new RegExp(rules.personalRequest, 'u') : undefined;
  const aboutText = rules.aboutText ? new RegExp(rules.aboutText, 'u') : undefined;
  const domains = (rules.domains ?? []).map((d) => ({ id: d.id, category: d.category as GateCategory, pattern: new RegExp(d.pattern, 'u') }));
  const message = (category: GateCategory, lang: 'zh' | 'en') => {
    const c = rules.categories[category];
    return c ? (lang === 'zh' ? c.message_zh : c.message_en) : category;
  };

  return {
    version: rules.version,
    evaluate(text: string, lang: 'zh' | 'en'): GateVerdict {
      const n = normalize(text);
      for (const rule of compiled) {
        if (rule.category === 'misreading' || rule.category === 'out_of_scope') continue;
        if (matches(rule, n, about)) return { allowed: false, category: rule.category, ruleId: rule.id, message: message(rule.category, lang) };
      }
      // Second layer: a personal request (a decision, a verdict, a service) inside a professional
      // or divinatory domain, unless the question asks what a text says.
      if (personalRequest?.test(n) && !aboutText?.test(n)) {
        const domain = domains.find((d) => d.pattern.test(n));
        if (domain) return { allowed: false, category: domain.category, ruleId: domain.id, message: message(domain.category, lang) };
      }
      // A misreading asserted as fact, or a concept of the classics used to justify an act.
      const asserted = isQuestion(n) ? undefined : assertions.find((a) => n.includes(a.text));
      const justified = !asserted && justification?.test(n) ? (assertions.find((a) => n.includes(a.text)) ?? triggers.find((t) => containsTerm(n, t.text))) : undefined;
      {
        const hit = asserted ?? justified;
        if (hit) {
          const correction = lang === 'zh' ? hit.rule.correction_zh : hit.rule.correction_en;
          return { allowed: false, category: 'misreading', ruleId: hit.rule.id, message: `${message('misreading', lang)} ${correction}` };
        }
      }
      for (const rule of compiled) {
        if (rule.category !== 'out_of_scope') continue;
        if (matches(rule, n, about)) return { allowed: false, category: rule.category, ruleId: rule.id, message: message(rule.category, lang) };
      }
      return ALLOWED;
    },
  };
}

function containsTerm(n: string, term: string): boolean {
  if (/\p{Script=Han}/u.test(term)) return n.includes(term);
  return new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(n);
}

function matches(rule: CompiledRule, n: string, about: RegExp): boolean {
  if (!rule.patterns.some((p) => p.test(n))) return false;
  if (rule.unless.some((p) => p.test(n))) return false;
  if (rule.exemptIfAboutClassics && about.test(n)) return false;
  return true;
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
