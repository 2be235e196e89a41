const ZH_TITLES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^Daodejing (\d+)$/, (m) => `《道德经》第${m[1]}章`],
  [/^Analects (\d+)\.(\d+)$/, (m) => `《论语》${m[1]}.${m[2]}`],
  [/^Diamond Sutra (\d+)$/, (m) => `《金刚经》第${m[1]}分`],
  [/^Chuanxilu (\d+)$/, (m) => `《传习录》第${m[1]}条`],
  [/^Yijing (\d+) \((\w+)\)(.*)$/, (m) => `《周易》第${m[1]}卦（${m[2]}）${yijingPart(m[3]!.trim())}`],
];

function yijingPart(part: string): string {
  if (!part) return '卦辞';
  if (part === 'Tuan') return '彖传';
  if (part === 'Image') return '大象';
  if (part === 'use nines') return '用九';
  if (part === 'use sixes') return '用六';
  const line = /^line (\d)$/.exec(part);
  return line ? `第${line[1]}爻` : part;
}

/** A stable locator as a reader of the answer's language expects to see it. */
export function displayLocator(locator: string, lang: 'zh' | 'en'): string {
  if (lang === 'en') return locator;
  for (const [re, format] of ZH_TITLES) {
    const m = re.exec(locator);
    if (m) return format(m);
  }
  return locator;
}
