import type { ConflictRecord, TrustLevel } from '../model.js';
import { displayLocator } from '../locators.js';
import type { BoundClaim } from './claims.js';

export type ExpressionMode = 'conversation' | 'explain' | 'study' | 'professional' | 'citation_first';

export const ANSWER_MODE: Record<ExpressionMode, string> = {
  conversation: 'A',
  explain: 'B',
  study: 'C',
  professional: 'D',
  citation_first: 'E',
};

const TRUST_LABEL: Record<TrustLevel, { zh: string; en: string }> = {
  T0: { zh: 'T0 原文直引', en: 'T0 canonical text, quoted verbatim' },
  T1: { zh: 'T1 文本事实', en: 'T1 fact about the text' },
  T2: { zh: 'T2 有原文依据的通行解释', en: 'T2 established interpretation with direct textual evidence' },
  T3: { zh: 'T3 跨篇章或跨传统的推论', en: 'T3 inference across passages or traditions' },
  T4: { zh: 'T4 对个人处境的应用', en: 'T4 application to the asker\u2019s situation' },
};

export const trustLabel = (level: TrustLevel, lang: 'zh' | 'en') => TRUST_LABEL[level][lang];

export interface Rendering {
  answer: string;
  rendered: string;
}

const statement = (b: BoundClaim, lang: 'zh' | 'en') => (lang === 'zh' ? b.claim.statement_zh : b.claim.statement_en);
const cite = (b: BoundClaim, lang: 'zh' | 'en') => [...new Set(b.bindings.map((s) => displayLocator(s.locator, lang)))].join(lang === 'zh' ? '；' : '; ');
const sources = (claims: BoundClaim[], lang: 'zh' | 'en') =>
  [...new Set(claims.flatMap((b) => b.bindings.map((s) => displayLocator(s.locator, lang))))].join(lang === 'zh' ? '；' : '; ');
const quoteOf = (b: BoundClaim, lang: 'zh' | 'en') =>
  b.bindings.map((s) => (lang === 'zh' ? `${displayLocator(s.locator, lang)}：“${s.quote}”` : `${s.locator}: \u201c${s.quote}\u201d`)).join(lang === 'zh' ? '；' : '; ');

function conflictNote(conflicts: ConflictRecord[], lang: 'zh' | 'en'): string {
  if (!conflicts.length) return '';
  return conflicts
    .map((c) =>
      lang === 'zh'
        ? `此处存在不同理解（${c.topic_zh}）：${c.positions.map((p) => p.label_zh).join('；')}。${c.note_zh}`
        : `Readings differ here (${c.topic_en}): ${c.positions.map((p) => p.label_en).join('; ')}. ${c.note_en}`,
    )
    .join(lang === 'zh' ? '\n' : '\n');
}

/**
 * Expression step: the same bound claims rendered for five uses. `answer` is the plain answer;
 * `rendered` is the mode's own layout. Nothing is added that a claim does not carry.
 */
export function express(claims: BoundClaim[], mode: ExpressionMode, lang: 'zh' | 'en', trust: TrustLevel, conflicts: ConflictRecord[]): Rendering {
  const sep = lang === 'zh' ? '' : ' ';
  const answer = claims.map((b) => statement(b, lang)).join(sep).trim();
  const note = conflictNote(conflicts, lang);
  const withNote = (text: string) => (note ? `${text}\n\n${note}` : text);
  const label = trustLabel(trust, lang);
  switch (mode) {
    case 'conversation':
      return { answer: withNote(answer), rendered: withNote(`${answer}${lang === 'zh' ? `（出处：${sources(claims, lang)}）` : ` (Sources: ${sources(claims, lang)})`}`) };
    case 'explain': {
      const lines = claims.map((b, i) => `${i + 1}. ${statement(b, lang)}\n   ${lang === 'zh' ? '依据' : 'Evidence'}: ${quoteOf(b, lang)}`);
      const head = lang === 'zh' ? `解释（可信度：${label}）` : `Explanation (trust: ${label})`;
      return { answer: withNote(answer), rendered: withNote(`${head}\n${lines.join('\n')}`) };
    }
    case 'study': {
      const lines = claims.map((b) =>
        [`- ${statement(b, lang)}`, ...b.bindings.map((s) => `  - ${displayLocator(s.locator, lang)}${lang === 'zh' ? '，原文' : ', text'}: ${s.quote}`), `  - ${lang === 'zh' ? '类型' : 'type'}: ${b.claim.claim_type} / ${b.claim.trust_level} / ${b.claim.truth_boundary}`].join('\n'),
      );
      const head = lang === 'zh' ? '研读笔记' : 'Study notes';
      return { answer: withNote(answer), rendered: withNote(`${head}\n${lines.join('\n')}`) };
    }
    case 'professional': {
      const lines = claims.map((b) => `[${b.claim.trust_level}|${b.claim.claim_type}] ${statement(b, lang)} \u2014 ${cite(b, lang)}`);
      return { answer: withNote(answer), rendered: withNote(`${lang === 'zh' ? '结论可信度' : 'Answer trust'}: ${trust}\n${lines.join('\n')}`) };
    }
    case 'citation_first': {
      const quotes = claims.map((b) => quoteOf(b, lang)).join('\n');
      return { answer: withNote(answer), rendered: withNote(`${quotes}\n\n${answer}`) };
    }
  }
}
