import { describe, expect, it } from 'vitest';
import { computeBill, toCents } from '../../src/atlas/billing.js';
import type { UsageRow } from '../../src/atlas/usage.js';

const plan = { currency: 'EUR', freeRequestsPerMonth: 1000, pricePer1000: { search: 0.5, graph: 1.0, lookup: 0.2, stats: 0.1, admin: 0 } };
const row = (day: string, keyId: string, endpoint: string, requests: number): UsageRow => ({ day, keyId, endpoint, requests });

describe('computeBill', () => {
  it('prices a month by hand', () => {
    const rows = [
      row('2025-03-01', 'key-a', 'search', 1500),
      row('2025-03-15', 'key-a', 'search', 700),
      row('2025-03-02', 'key-a', 'graph', 600),
      row('2025-03-02', 'key-a', 'lookup', 333),
      row('2025-03-31', 'key-a', 'admin/usage', 5),
      row('2025-04-01', 'key-a', 'search', 9999), // another month
      row('2025-02-28', 'key-a', 'graph', 50), // another month
      row('2025-03-10', 'key-b', 'search', 900),
      row('2025-03-10', 'key-b', 'stats', 250),
      row('2025-03-20', 'key-c', 'export', 10), // a class the plan does not price
    ];
    // key-a: 1000 free go to graph (600, the dearest), then search (400): search 1800 billable -> 0.90,
    //        lookup 333 -> 0.0666 -> 0.07, admin free of charge. Total 0.97.
    // key-b: free to search (900) then stats (100): stats 150 billable -> 0.015 -> 0.02 (half up).
    // key-c: 10 requests, all free.
    expect(computeBill(rows, plan, '2025-03')).toEqual({
      month: '2025-03',
      currency: 'EUR',
      freeRequestsPerMonth: 1000,
      keys: [
        {
          keyId: 'key-a',
          requests: 3138,
          freeAllowance: 1000,
          freeRequestsUsed: 1000,
          billableRequests: 2138,
          lines: [
            { class: 'search', requests: 2200, freeRequests: 400, billableRequests: 1800, pricePer1000: 0.5, amount: 0.9 },
            { class: 'graph', requests: 600, freeRequests: 600, billableRequests: 0, pricePer1000: 1, amount: 0 },
            { class: 'lookup', requests: 333, freeRequests: 0, billableRequests: 333, pricePer1000: 0.2, amount: 0.07 },
            { class: 'admin', requests: 5, freeRequests: 0, billableRequests: 5, pricePer1000: 0, amount: 0 },
          ],
          total: 0.97,
        },
        {
          keyId: 'key-b',
          requests: 1150,
          freeAllowance: 1000,
          freeRequestsUsed: 1000,
          billableRequests: 150,
          lines: [
            { class: 'search', requests: 900, freeRequests: 900, billableRequests: 0, pricePer1000: 0.5, amount: 0 },
            { class: 'stats', requests: 250, freeRequests: 100, billableRequests: 150, pricePer1000: 0.1, amount: 0.02 },
          ],
          total: 0.02,
        },
        {
          keyId: 'key-c',
          requests: 10,
          freeAllowance: 1000,
          freeRequestsUsed: 10,
          billableRequests: 0,
          lines: [{ class: 'export', requests: 10, freeRequests: 10, billableRequests: 0, pricePer1000: 0, amount: 0 }],
          total: 0,
        },
      ],
      totals: { requests: 4298, billableRequests: 2288, amount: 0.99 },
    });
  });

  it('gives an empty bill for a month without usage', () => {
    expect(computeBill([row('2025-03-01', 'k', 'search', 5)], plan, '2025-04')).toEqual({
      month: '2025-04',
      currency: 'EUR',
      freeRequestsPerMonth: 1000,
      keys: [],
      totals: { requests: 0, billableRequests: 0, amount: 0 },
    });
  });

  it('rounds to cents half up without binary noise', () => {
    expect(toCents(1.005)).toBe(1.01);
    expect(toCents(0.015)).toBe(0.02);
    expect(toCents(0.0149)).toBe(0.01);
    expect(toCents(2.675)).toBe(2.68);
    expect(toCents(0.1 + 0.2)).toBe(0.3);
  });

  it('prices everything when there is no free allowance', () => {
    const bill = computeBill([row('2025-03-01', 'k', 'graph', 2500)], { ...plan, freeRequestsPerMonth: 0 }, '2025-03');
    expect(bill.keys[0]!.lines[0]).toEqual({ class: 'graph', requests: 2500, freeRequests: 0, billableRequests: 2500, pricePer1000: 1, amount: 2.5 });
    expect(bill.totals.amount).toBe(2.5);
  });
});
