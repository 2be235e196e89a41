import { describe, expect, it } from 'vitest';
import { sameOrWithin } from '../../scripts/eval.js';

describe('evaluation scoring', () => {
  it('counts a citation as right when its locator is the expected one', () => {
    expect(sameOrWithin('Analects 2.4', 'Analects 2.4')).toBe(true);
    expect(sameOrWithin('Analects 2.4', 'Analects 2.14')).toBe(false);
    expect(sameOrWithin('Daodejing 8', 'Daodejing 81')).toBe(false);
  });

  it('lets a whole Yijing hexagram stand for any of its parts, and only its own', () => {
    expect(sameOrWithin('Yijing 15 (Qian) Image', 'Yijing 15')).toBe(true);
    expect(sameOrWithin('Yijing 15 (Qian) line 3', 'Yijing 15')).toBe(true);
    expect(sameOrWithin('Yijing 1 (Qian) Image', 'Yijing 15')).toBe(false);
    expect(sameOrWithin('Yijing 15 (Qian) Image', 'Yijing 1')).toBe(false);
    expect(sameOrWithin('Yijing 15 (Qian)', 'Yijing 15 (Qian) Image')).toBe(false);
  });
});
