import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCalendarDay, monthRange, UsageMeter, usageRange } from '../../src/atlas/usage.js';
import { openDatabase } from '../../src/platform/db.js';
import { tempDir } from '../helpers.js';

describe('usage meter', () => {
  it('buffers counts in memory and adds them to the table on flush', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    const meter = new UsageMeter(db);
    const day1 = new Date('2025-03-01T23:59:59Z');
    const day2 = new Date('2025-03-02T00:00:00Z');
    for (let i = 0; i < 3; i++) meter.record('key-a', 'search', day1);
    meter.record('key-a', 'graph', day1);
    meter.record('key-b', 'search', day2);
    expect(meter.pending).toBe(5);
    expect(db.prepare('SELECT COUNT(*) FROM atlas_usage').pluck().get()).toBe(0);
    expect(meter.flush()).toBe(3);
    expect(meter.pending).toBe(0);
    meter.record('key-a', 'search', day1);
    meter.flush();
    expect(meter.report('2025-03-01', '2025-03-31')).toEqual({
      from: '2025-03-01',
      to: '2025-03-31',
      rows: [
        { day: '2025-03-01', keyId: 'key-a', endpoint: 'graph', requests: 1 },
        { day: '2025-03-01', keyId: 'key-a', endpoint: 'search', requests: 4 },
        { day: '2025-03-02', keyId: 'key-b', endpoint: 'search', requests: 1 },
      ],
      totals: { requests: 6, byKey: { 'key-a': 5, 'key-b': 1 }, byEndpoint: { graph: 1, search: 5 } },
    });
    expect(meter.report('2025-03-02', '2025-03-02').totals.requests).toBe(1);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('flushes before reporting, so the report is current', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    const meter = new UsageMeter(db);
    meter.record('k', 'lookup', new Date('2025-05-05T10:00:00Z'));
    expect(meter.report('2025-05-01', '2025-05-31').totals.requests).toBe(1);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('dates', () => {
  it('knows calendar days', () => {
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2025-02-29')).toBe(false);
    expect(isCalendarDay('2025-13-01')).toBe(false);
    expect(isCalendarDay('2025-1-01')).toBe(false);
  });

  it('defaults the usage range to whole months', () => {
    const now = new Date('2024-02-10T12:00:00Z');
    expect(monthRange('2024-02')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(usageRange(undefined, undefined, now)).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(usageRange('2023-12-05', undefined, now)).toEqual({ from: '2023-12-05', to: '2023-12-31' });
    expect(usageRange(undefined, '2023-11-20', now)).toEqual({ from: '2023-11-01', to: '2023-11-20' });
  });
});
