import { beforeAll, describe, expect, it } from 'vitest';
import { illuminate } from '../../../src/classics/illumination/illuminate.js';
import { openLibrary, type Library } from '../../../src/classics/library.js';
import { codePoints } from '../../../src/classics/packs.js';

let lib: Library;
beforeAll(() => {
  lib = openLibrary('packs');
});

const CLASSICS_OF: Record<string, string[]> = {
  daoist: ['daodejing', 'yijing'],
  confucian: ['analects', 'yijing'],
  buddhist: ['diamond-sutra'],
  yangming: ['chuanxilu'],
};

/** A question, the situation it should meet, and the passages one tradition should answer it from. */
type Meeting = [query: string, situationId: string, tradition: string, evidenceIds: string[]];

function meets(cases: Meeting[]) {
  for (const [query, id, tradition, evidence] of cases) {
    const a = illuminate({ query }, lib, 'q');
    expect(a.context.situation_id, query).toBe(id);
    expect(a.perspectives.find((p) => p.tradition === tradition)?.evidence_ids, query).toEqual(evidence);
  }
}

describe('illumination over the packs\u2019 situations', () => {
  it('gives four perspectives within 50-100 characters, each resting on its own classic or saying it has none', () => {
    const situations = lib.knowledge.situations.slice(0, 48);
    expect(situations.length).toBeGreaterThanOrEqual(40);
    let matched = 0;
    situations.forEach((situation, i) => {
      // Alternate the languages: half the walk asks in Chinese, half in English.
      const query = i % 2 === 0 ? situation.phrasings_zh[0]! : situation.phrasings_en[0]!;
      const answer = illuminate({ query }, lib, `walk-${i}`);
      expect(answer.abstention, query).toBeNull();
      if (answer.context.situation_id === situation.id) matched++;
      expect(answer.perspectives.map((p) => p.tradition)).toEqual(['daoist', 'confucian', 'buddhist', 'yangming']);
      expect(answer.perspectives.map((p) => p.school)).toEqual(['道', '儒', '佛', '心']);
      for (const p of answer.perspectives) {
        const n = codePoints(p.text);
        expect(n, `${query} / ${p.tradition}: ${p.text}`).toBeGreaterThanOrEqual(50);
        expect(n, `${query} / ${p.tradition}: ${p.text}`).toBeLessThanOrEqual(100);
        if (p.has_evidence) {
          expect(p.evidence_ids.length).toBeGreaterThan(0);
          for (const id of p.evidence_ids) expect(CLASSICS_OF[p.tradition], `${p.tradition} cites ${id}`).toContain(lib.knowledge.passageById.get(id)!.packId);
        } else {
          expect(p.trust).toBe('T4');
          expect(p.evidence_ids).toEqual([]);
        }
      }
      for (const c of answer.citations) {
        const passage = lib.knowledge.passageById.get(c.evidence_id)!;
        expect(passage.text).toContain(c.quote);
        expect(c.locator).toBe(passage.locator);
      }
      const drawer = new Set(answer.evidence_drawer.map((e) => e.evidence_id));
      for (const p of answer.perspectives) for (const id of p.evidence_ids) expect(drawer.has(id)).toBe(true);
    });
    // The walk asks with the situations' own phrasings: most must find their situation.
    expect(matched).toBeGreaterThanOrEqual(Math.floor(situations.length * 0.8));
  });

  it('reads worry about the future that keeps one awake as that, not as fear of death', () => {
    expect(illuminate({ query: '我总是担心未来，晚上睡不着' }, lib, 'q').context.situation_id).toBe('situation.anxiety.uncertain-future');
  });

  it('meets regret over old mistakes with the passages on correcting them', () => {
    const answer = illuminate({ query: '以前做错的事总在脑子里转，一想起来就懊悔，放不下' }, lib, 'q');
    expect(answer.context.situation_id).toBe('situation.failure.regret-past-mistakes');
    expect(answer.perspectives.find((p) => p.tradition === 'yangming')?.evidence_ids).toEqual(['cxl.106']);
  });

  it('meets a parent who will not take advice, and tempting money from a dubious job, with their own passages', () => {
    const parent = illuminate({ query: '我爸要把积蓄借给一个不靠谱的亲戚，我劝了好几次他都不听，还冲我发火' }, lib, 'q');
    expect(parent.abstention).toBeNull();
    expect(parent.context.situation_id).toBe('situation.family.parent-wont-listen');
    expect(parent.perspectives.find((p) => p.tradition === 'confucian')?.evidence_ids).toEqual(['lunyu.4.18']);
    const money = illuminate({ query: 'The pay is great but I think the business cheats its customers, and I really need the money' }, lib, 'q');
    expect(money.abstention).toBeNull();
    expect(money.context.situation_id).toBe('situation.ethics.tempting-money');
  });

  it('meets no time to learn for work, and a late father\'s business, with their own passages', () => {
    const busy = illuminate({ query: '每天文件审批开会，忙得根本没时间读书修身，只能等退休吗' }, lib, 'q');
    expect(busy.context.situation_id).toBe('situation.work.no-time-to-learn');
    expect(busy.perspectives.find((p) => p.tradition === 'yangming')?.evidence_ids).toEqual(['cxl.218', 'cxl.103']);
    const legacy = illuminate({ query: '我爸走后留下一间小店，我想按自己的想法全改掉，又怕对不起他' }, lib, 'q');
    expect(legacy.context.situation_id).toBe('situation.grief.parents-legacy');
    expect(legacy.perspectives.find((p) => p.tradition === 'confucian')?.evidence_ids).toEqual(['lunyu.1.11', 'lunyu.4.20', 'yijing.18.line1']);
  });

  it('meets being swayed by praise, wanting to leave the world, and blaming a teammate, with their own passages', () => {
    meets([
      ['上司夸了我一次，之后我一直怕失宠，一被批评就难受好几天', 'situation.anxiety.praise-and-blame', 'daoist', ['ddj.13']],
      ['I am so sick of work and people that I want to go live alone in the mountains for good', 'situation.decisions.retreat-from-world', 'confucian', ['lunyu.18.6', 'lunyu.8.13', 'yijing.33.judgment']],
      ['My coworker messed up the launch and I want to blame him publicly, but my boss says look at my own part first', 'situation.work.blame-teammate', 'confucian', ['lunyu.15.21', 'lunyu.15.15']],
    ]);
  });

  it('meets giving without thanks, competing with friends, and giving up on a student, with their own passages', () => {
    meets([
      ['我每个月都给山区小学捐钱，可从没收到过一句感谢，心里有点别扭', 'situation.ethics.giving-unthanked', 'buddhist', ['ds.4']],
      ['Whenever my friends get a raise I feel worse about myself, and I keep trying to outdo them', 'situation.friendship.competing-with-friends', 'yangming', ['cxl.18', 'cxl.339']],
      ['班上有个学生怎么教都跟不上，我真想放弃他', 'situation.work.giving-up-on-a-student', 'daoist', ['ddj.27']],
    ]);
  });

  it('meets a team easing off just before the finish with the Daodejing and both Completion hexagrams', () => {
    const late = illuminate({ query: '团队的活儿快干完了，大家都松懈下来，我担心最后功亏一篑' }, lib, 'q');
    expect(late.context.situation_id).toBe('situation.work.slacking-near-finish');
    expect(late.perspectives.find((p) => p.tradition === 'daoist')?.evidence_ids).toEqual(['ddj.64']);
    expect(late.perspectives.find((p) => p.tradition === 'confucian')?.evidence_ids).toEqual(['yijing.63.judgment', 'yijing.64.judgment']);
  });

  it('meets being badmouthed, an investment loss, being looked down on, and good times feared to end', () => {
    const cases: Meeting[] = [
      ['背后总有人在老板面前中伤我，我很想报复回去', 'situation.conflict.badmouthed', 'confucian', ['lunyu.12.6', 'lunyu.15.15']],
      ['I lost a big chunk of my savings in stocks this year and cannot stop worrying', 'situation.money.investment-loss', 'daoist', ['ddj.44', 'ddj.9']],
      ['我天天念金刚经，可在公司还是被人瞧不起', 'situation.anxiety.looked-down-on', 'buddhist', ['ds.16']],
      ['最近一切都顺利得出奇，我反倒怕好景不长', 'situation.anxiety.good-times-wont-last', 'confucian', ['yijing.63.image', 'yijing.12.line5']],
    ];
    meets(cases);
  });

  it('meets a job one cannot leave, calm that breaks in traffic, late-night scrolling, and worry about looks', () => {
    const cases: Meeting[] = [
      ['I have been stuck for years in a job I hate and cannot afford to quit', 'situation.work.trapped-in-job', 'confucian', ['yijing.47.judgment', 'yijing.47.image']],
      ['打坐的时候心里很静，可一遇到堵车就忍不住骂人', 'situation.anger.calm-only-when-sitting', 'yangming', ['cxl.23', 'cxl.204']],
      ['我每晚都刷手机刷到两三点，刷完心里空落落的', 'situation.habits.scrolling-emptiness', 'daoist', ['ddj.12']],
      ['I keep staring at my flaws in the mirror and feel ugly', 'situation.anxiety.appearance', 'buddhist', ['ds.5']],
    ];
    meets(cases);
  });

  it('names each passage once in a perspective, though its claim quotes two spans of it', () => {
    for (const query of ['我和亲戚为了老房子的产权闹翻了，在犹豫要不要打官司', '上过一次当，就再也不敢相信人']) {
      const a = illuminate({ query }, lib, 'q');
      for (const p of a.perspectives) expect(p.evidence_ids, `${query} ${p.tradition}`).toEqual([...new Set(p.evidence_ids)]);
      expect(a.perspectives.some((p) => p.evidence_ids.length > 0), query).toBe(true);
    }
  });

  it('meets a going-to-court quarrel and a friend who will not take advice with their own passages', () => {
    meets([
      ['我和亲戚为了老房子的产权闹翻了，在犹豫要不要打官司', 'situation.conflict.going-to-court', 'confucian', ['lunyu.12.13', 'yijing.6.judgment']],
      ['My friend keeps making bad decisions; I have warned him many times and now he is annoyed with me', 'situation.friendship.advice-not-taken', 'confucian', ['lunyu.12.23', 'lunyu.4.26']],
    ]);
  });

  it('meets a petty boss, trust lost after being tricked, and a venture just started', () => {
    const cases: Meeting[] = [
      ['我的上司小心眼又爱报复，我不想跟他正面冲突，只想离他远点', 'situation.work.petty-boss', 'confucian', ['yijing.33.image', 'yijing.33.judgment']],
      ['Since a colleague tricked me I cannot trust anyone at work', 'situation.friendship.burned-once', 'confucian', ['lunyu.14.31']],
      ['刚出来自己开公司，几个月了一切都还乱成一团', 'situation.career.starting-up', 'confucian', ['yijing.3.judgment', 'yijing.3.image']],
    ];
    meets(cases);
  });

  it('meets haste for results and the need to win every argument', () => {
    meets([
      ['我太想快点出成绩了，专挑见效快的活，结果接连出错', 'situation.work.impatient-for-results', 'confucian', ['lunyu.13.17']],
      ['I cannot let a debate go until I have won, and people at work are tired of me', 'situation.conflict.must-win-arguments', 'daoist', ['ddj.81', 'ddj.22']],
    ]);
  });

  it('meets a dead end, pressure to grow after a good year, fear of ghosts at night, and sneering colleagues', () => {
    meets([
      ['失业半年，积蓄快花光了，感觉走投无路', 'situation.hardship.at-wits-end', 'confucian', ['yijing.47.judgment', 'yijing.29.judgment', 'yijing.39.image']],
      ['After one great year the investors want us to expand fast into new markets and I am uneasy', 'situation.success.pressure-to-expand', 'daoist', ['ddj.9', 'ddj.44']],
      ['I am forty and still too scared of ghosts to sleep with the light off', 'situation.anxiety.afraid-at-night', 'yangming', ['cxl.40']],
      ['同事们总拿话挖苦我，好像我低人一等', 'situation.anxiety.looked-down-on', 'buddhist', ['ds.16']],
    ]);
  });

  it('meets teaching pupils of different temperaments with Analects 11.22 and Chuanxilu 225', () => {
    meets([
      ['我教的孩子性子各不相同，有的胆小，有的冒冒失失，同样的话效果完全不一样', 'situation.work.teaching-different-temperaments', 'confucian', ['lunyu.11.22', 'lunyu.6.21']],
      ['Some of my students are timid and others rush in headlong; should I teach them differently?', 'situation.work.teaching-different-temperaments', 'yangming', ['cxl.225']],
    ]);
  });

  it("meets a father's business to reform with Gu (Yijing 18), a new lead with Analects 13.6, and retirement and a racing mind", () => {
    meets([
      ['接手了父亲干了一辈子的小厂，老办法得改，又怕伤他的心', 'situation.grief.parents-legacy', 'confucian', ['lunyu.1.11', 'lunyu.4.20', 'yijing.18.line1']],
      ['刚当上组长，组里的老员工不太服气，我不想靠压人', 'situation.work.leading-a-team', 'confucian', ['lunyu.13.2', 'lunyu.2.3', 'lunyu.13.6']],
      ['Since I retired after thirty years of teaching I feel useless', 'situation.retirement.loss-of-purpose', 'daoist', ['ddj.9']],
      ['一天到晚都忙，就连周末脑子也停不下来', 'situation.work.burnout', 'yangming', ['cxl.104']],
    ]);
  });

  it('meets a layoff and a failed exam with the Kun and Jian images of the Yijing', () => {
    meets([
      ['公司裁员，我被裁掉了，一下子没了工作', 'situation.career.laid-off', 'confucian', ['lunyu.15.2', 'yijing.47.image']],
      ['考研又落榜了，不想再考了', 'situation.study.failed-exam', 'confucian', ['lunyu.16.9', 'lunyu.9.19', 'yijing.39.image']],
    ]);
  });

  it('answers in the question language', () => {
    const zh = illuminate({ query: '我每天上班都觉得被掏空' }, lib, 'zh');
    expect(zh.perspectives.every((p) => /[\u4e00-\u9fff]/.test(p.text))).toBe(true);
    const en = illuminate({ query: 'I feel drained by my job every day' }, lib, 'en');
    expect(en.perspectives.every((p) => !/[\u4e00-\u9fff]{6}/.test(p.text))).toBe(true);
  });

  it('raises the context level with minimal context', () => {
    expect(illuminate({ query: 'What is wu wei?' }, lib, 'a').context.context_confidence).toBe('C1');
    expect(illuminate({ query: 'I feel drained by my job every day' }, lib, 'b').context.context_confidence).toBe('C2');
    expect(illuminate({ query: 'I feel drained by my job every day', minimal_context: 'I work nights as a nurse' }, lib, 'c').context.context_confidence).toBe('C3');
  });

  it('says plainly when a tradition has nothing, with T4, instead of inventing a stance', () => {
    const answer = illuminate({ query: '什么是良知？' }, lib, 'lz');
    const daoist = answer.perspectives.find((p) => p.tradition === 'daoist')!;
    expect(daoist).toMatchObject({ has_evidence: false, trust: 'T4', evidence_ids: [] });
    expect(daoist.text).toMatch(/没有找到/);
    expect(answer.perspectives.find((p) => p.tradition === 'yangming')!.has_evidence).toBe(true);
  });

  it('abstains with no perspectives when the Gate blocks or the question is out of scope', () => {
    const blocked = illuminate({ query: 'Cast a hexagram for my marriage' }, lib, 'g');
    expect(blocked.abstention).toMatchObject({ reason: 'GATE_BLOCKED', category: 'divination' });
    expect(blocked.perspectives).toEqual([]);
    const out = illuminate({ query: 'What is the capital of Australia?' }, lib, 'o');
    expect(out.abstention?.reason).toBe('OUT_OF_SCOPE');
    expect(out.perspectives).toEqual([]);
  });
});
