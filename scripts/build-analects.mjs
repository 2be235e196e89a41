#!/usr/bin/env node
// Builds the Analects (论语) pack from the npm package `chinese-poetry`.
//
// Input:  node_modules/chinese-poetry/dist/lunyu/lunyu.json (20 books, simplified characters)
//         packs/classics/analects/en.json (original English renderings keyed "book.passage")
// Output: packs/classics/analects/passages.json
//         packs/classics/analects/build-source.json
//
// The package's division into passages already follows Yang Bojun's numbering
// (论语译注), so passages map one-to-one onto book.passage locators. The received
// text is used as is except for the documented errata below. The output is
// deterministic: no timestamps, stable key order, 2-space indent.
//
// Usage: node scripts/build-analects.mjs

import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const packDir = path.join(repoRoot, 'packs', 'classics', 'analects');

const PACKAGE = 'chinese-poetry';
const DATA_FILE = 'dist/lunyu/lunyu.json';
// sha256 of the data file the errata below were audited against (chinese-poetry@2.0.1).
const AUDITED_SHA256 = 'bc336a3839706377892719db44c48a09794a493190535a42bf1c7d4c4233e96c';

// Book titles in order; the package labels them "学而篇" etc.
const BOOK_TITLES = [
  '学而', '为政', '八佾', '里仁', '公冶长', '雍也', '述而', '泰伯', '子罕', '乡党',
  '先进', '颜渊', '子路', '宪问', '卫灵公', '季氏', '阳货', '微子', '子张', '尧曰',
];
// Passage counts per book in Yang Bojun's numbering (total 512).
const PASSAGE_COUNTS = [16, 24, 26, 26, 28, 30, 38, 21, 31, 27, 26, 24, 30, 44, 42, 14, 26, 11, 25, 3];

const CONVERSION =
  'None: the package ships the Analects in simplified characters. The text is used as received, ' +
  'except for the errata listed here (ASCII punctuation to full-width, traditional/variant characters ' +
  'to the simplified standard of the 通用规范汉字表 (2013), clear typographical errors, and quote balancing).';

// Errata: genuine corrections to the received package text only. Each `from`
// must occur exactly once in the passage named by `locator`.
const ERRATA = [
  { locator: 'Analects 2.22', from: '大车无輗', to: '大车无𫐐', reason: 'Traditional character 輗 to its standard simplified form 𫐐 (通用规范汉字表).' },
  { locator: 'Analects 2.22', from: '小车无軏', to: '小车无𫐄', reason: 'Traditional character 軏 to its standard simplified form 𫐄 (通用规范汉字表).' },
  { locator: 'Analects 3.1', from: '季氏:“', to: '季氏：“', reason: 'ASCII colon to full-width colon.' },
  { locator: 'Analects 3.1', from: '孰不可忍也?', to: '孰不可忍也？', reason: 'ASCII question mark to full-width question mark.' },
  { locator: 'Analects 3.2', from: '以《雍》彻,子曰', to: '以《雍》彻，子曰', reason: 'ASCII comma to full-width comma.' },
  { locator: 'Analects 3.4', from: '问礼之本,子曰', to: '问礼之本，子曰', reason: 'ASCII comma to full-width comma.' },
  { locator: 'Analects 3.20', from: '《关睢》', to: '《关雎》', reason: 'Typo: 睢 (suī) for 雎 (jū); the ode is 关雎, as the package itself writes at 8.15.' },
  { locator: 'Analects 4.4', from: '苟志於仁矣', to: '苟志于仁矣', reason: 'Traditional/variant 於 to the simplified standard 于 (preposition yú).' },
  { locator: 'Analects 4.7', from: '各於其党', to: '各于其党', reason: 'Traditional/variant 於 to the simplified standard 于 (preposition yú).' },
  { locator: 'Analects 6.16', from: '祝鮀', to: '祝𬶍', reason: 'Traditional character 鮀 to its standard simplified form 𬶍 (通用规范汉字表).' },
  { locator: 'Analects 10.1', from: '宗庙朝庭', to: '宗庙朝廷', reason: 'Typo: 朝庭 for 朝廷 (the court).' },
  { locator: 'Analects 10.6', from: '袗絺绤', to: '袗𫄨绤', reason: 'Traditional character 絺 to its standard simplified form 𫄨 (通用规范汉字表).' },
  { locator: 'Analects 11.12', from: '焉能事鬼？”,曰', to: '焉能事鬼？”曰', reason: 'Stray ASCII comma after a closing quotation mark removed.' },
  { locator: 'Analects 11.22', from: '子曰：“闻斯行之。公西华曰', to: '子曰：“闻斯行之。”公西华曰', reason: 'Quote balancing: closing quotation mark missing after 闻斯行之。' },
  { locator: 'Analects 13.20', from: '踁踁然小人哉', to: '硁硁然小人哉', reason: 'Typo: 踁 (shin) for 硁 (kēng, stubborn); the received text reads 硁硁然.' },
  { locator: 'Analects 14.18', from: '子闻之,曰', to: '子闻之，曰', reason: 'ASCII comma to full-width comma.' },
  { locator: 'Analects 14.19', from: '祝鮀', to: '祝𬶍', reason: 'Traditional character 鮀 to its standard simplified form 𬶍 (通用规范汉字表).' },
  { locator: 'Analects 14.21', from: '告夫三子。”,孔子曰', to: '告夫三子。”孔子曰', reason: 'Stray ASCII comma after a closing quotation mark removed.' },
  { locator: 'Analects 14.33', from: '曰：“骥不称其力', to: '子曰：“骥不称其力', reason: 'Typo: speaker 子 dropped; the received text reads 子曰.' },
  { locator: 'Analects 16.4', from: '有便佞', to: '友便佞', reason: 'Typo: 有 for 友, breaking the 友直、友谅、友多闻 / 友便辟、友善柔、友便佞 parallel.' },
  { locator: 'Analects 16.12', from: '其斯之谓与？”', to: '其斯之谓与？', reason: 'Quote balancing: unmatched closing quotation mark removed (the passage has no quoted speech).' },
  { locator: 'Analects 18.4', from: '孔子行。”', to: '孔子行。', reason: 'Quote balancing: unmatched closing quotation mark removed (the passage has no quoted speech).' },
  { locator: 'Analects 18.11', from: '季騧', to: '季䯄', reason: 'Traditional character 騧 to its standard simplified form 䯄 (通用规范汉字表).' },
];

function fail(msg) {
  console.error(`build-analects: ${msg}`);
  process.exit(1);
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function writeJson(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function countOccurrences(haystack, needle) {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

function checkText(key, text) {
  if (/[\x00-\x7f]/.test(text)) fail(`${key}: ASCII character left in text: ${JSON.stringify(text)}`);
  const stack = [];
  const pairs = { '”': '“', '’': '‘', '》': '《' };
  for (const ch of text) {
    if (ch === '“' || ch === '‘' || ch === '《') stack.push(ch);
    else if (ch in pairs && stack.pop() !== pairs[ch]) fail(`${key}: unbalanced ${ch}`);
  }
  if (stack.length) fail(`${key}: unclosed ${stack.join('')}`);
}

// --- read the package data ---------------------------------------------------
let pkgJsonPath;
try {
  pkgJsonPath = require.resolve(`${PACKAGE}/package.json`);
} catch {
  fail(`cannot resolve ${PACKAGE}; install it as a devDependency (npm i -D ${PACKAGE}@2.0.1)`);
}
const pkgRoot = path.dirname(pkgJsonPath);
const pkg = readJson(pkgJsonPath);
const dataPath = path.join(pkgRoot, ...DATA_FILE.split('/'));
const raw = fs.readFileSync(dataPath);
const sha256 = createHash('sha256').update(raw).digest('hex');
if (sha256 !== AUDITED_SHA256) {
  fail(`${PACKAGE}@${pkg.version} ${DATA_FILE} has sha256 ${sha256}, not the audited ${AUDITED_SHA256}; re-audit the errata before rebuilding`);
}
const books = JSON.parse(raw.toString('utf8'));

if (!Array.isArray(books) || books.length !== BOOK_TITLES.length) fail(`expected ${BOOK_TITLES.length} books`);
books.forEach((b, i) => {
  if (b.chapter !== `${BOOK_TITLES[i]}篇`) fail(`book ${i + 1}: expected ${BOOK_TITLES[i]}篇, got ${b.chapter}`);
  if (!Array.isArray(b.paragraphs) || b.paragraphs.length !== PASSAGE_COUNTS[i]) {
    fail(`book ${i + 1}: expected ${PASSAGE_COUNTS[i]} passages, got ${b.paragraphs?.length}`);
  }
});

// --- apply errata ------------------------------------------------------------
const texts = new Map();
books.forEach((b, i) => b.paragraphs.forEach((p, j) => texts.set(`${i + 1}.${j + 1}`, p)));
for (const e of ERRATA) {
  const key = e.locator.replace(/^Analects /, '');
  const text = texts.get(key);
  if (text === undefined) fail(`erratum for unknown locator ${e.locator}`);
  const n = countOccurrences(text, e.from);
  if (n !== 1) fail(`erratum ${e.locator} ${JSON.stringify(e.from)}: found ${n} times, expected exactly 1`);
  texts.set(key, text.replace(e.from, () => e.to));
}

// Optional cross-check: if opencc-js is installed, no traditional-only character may remain.
let t2cn = null;
try {
  const OpenCC = require('opencc-js');
  t2cn = OpenCC.Converter({ from: 't', to: 'cn' });
} catch {
  console.error('build-analects: opencc-js not installed; skipping the traditional-character cross-check');
}
for (const [key, text] of texts) {
  checkText(key, text);
  if (t2cn && t2cn(text) !== text) fail(`${key}: traditional characters remain: ${text}`);
}

// --- English -----------------------------------------------------------------
const en = readJson(path.join(packDir, 'en.json'));
for (const [key, value] of Object.entries(en)) {
  if (!texts.has(key)) fail(`en.json: unknown passage ${key}`);
  if (typeof value !== 'string' || !value.trim()) fail(`en.json: empty rendering for ${key}`);
}

// --- write -------------------------------------------------------------------
const passages = [];
books.forEach((b, i) => {
  b.paragraphs.forEach((_, j) => {
    const book = i + 1;
    const passage = j + 1;
    const key = `${book}.${passage}`;
    const entry = {
      id: `lunyu.${key}`,
      locator: `Analects ${key}`,
      book,
      passage,
      book_title: BOOK_TITLES[i],
      text: texts.get(key),
    };
    if (en[key]) entry.en = en[key].trim();
    passages.push(entry);
  });
});

writeJson(path.join(packDir, 'passages.json'), passages);
writeJson(path.join(packDir, 'build-source.json'), {
  package: PACKAGE,
  version: pkg.version,
  dataFile: DATA_FILE,
  sha256,
  license: pkg.license,
  conversion: CONVERSION,
  errata: ERRATA,
});

console.log(
  `build-analects: wrote ${passages.length} passages (${passages.filter((p) => p.en).length} with English), ` +
    `${ERRATA.length} errata applied, from ${PACKAGE}@${pkg.version}`,
);
