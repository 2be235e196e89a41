/**
 * The monthly bill: a pure function of the usage rows and the plan.
 *
 * - Each endpoint belongs to a price class: search, graph, lookup, stats, or admin (every
 *   admin/* endpoint). A class missing from plan.pricePer1000 is priced at 0.
 * - Each key gets plan.freeRequestsPerMonth free requests per calendar month (UTC). The allowance
 *   is consumed by the most expensive class first (ties by class name), so a key always gets the
 *   largest possible discount from it. This is deterministic and independent of request order.
 * - A line's amount is billable / 1000 * pricePer1000, rounded to cents (half up). A key's total
 *   is the sum of its rounded lines; the bill's total is the sum of the key totals.
 */
import type { UsageRow } from './usage.js';

export interface Plan {
  currency: string;
  freeRequestsPerMonth: number;
  pricePer1000: Record<string, number>;
}

export interface BillLine {
  class: string;
  requests: number;
  freeRequests: number;
  billableRequests: number;
  pricePer1000: number;
  amount: number;
}

export interface KeyBill {
  keyId: string;
  requests: number;
  freeAllowance: number;
  freeRequestsUsed: number;
  billableRequests: number;
  lines: BillLine[];
  total: number;
}

export interface Bill {
  month: string;
  currency: string;
  freeRequestsPerMonth: number;
  keys: KeyBill[];
  totals: { requests: number; billableRequests: number; amount: number };
}

export const CLASS_ORDER = ['search', 'graph', 'lookup', 'stats', 'admin'];

export const priceClass = (endpoint: string) => (endpoint.startsWith('admin/') || endpoint === 'admin' ? 'admin' : endpoint);

/** Rounds a money amount to cents, half up, immune to binary noise like 1.005 -> 1.00. */
export const toCents = (amount: number) => Math.round(Math.round(amount * 1e6) / 1e4) / 100;

const classRank = (c: string) => {
  const i = CLASS_ORDER.indexOf(c);
  return i === -1 ? CLASS_ORDER.length : i;
};

export function computeBill(rows: readonly UsageRow[], plan: Plan, month: string): Bill {
  const perKey = new Map<string, Map<string, number>>();
  for (const row of rows) {
    if (row.day.slice(0, 7) !== month) continue;
    const classes = perKey.get(row.keyId) ?? new Map<string, number>();
    const c = priceClass(row.endpoint);
    classes.set(c, (classes.get(c) ?? 0) + row.requests);
    perKey.set(row.keyId, classes);
  }
  const price = (c: string) => plan.pricePer1000[c] ?? 0;

  const keys: KeyBill[] = [...perKey.keys()].sort().map((keyId) => {
    const classes = perKey.get(keyId)!;
    let allowance = plan.freeRequestsPerMonth;
    const free = new Map<string, number>();
    const byPriceDesc = [...classes.keys()].sort((a, b) => price(b) - price(a) || (a < b ? -1 : a > b ? 1 : 0));
    for (const c of byPriceDesc) {
      const used = Math.min(allowance, classes.get(c)!);
      free.set(c, used);
      allowance -= used;
    }
    const lines = [...classes.keys()]
      .sort((a, b) => classRank(a) - classRank(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map((c): BillLine => {
        const requests = classes.get(c)!;
        const freeRequests = free.get(c) ?? 0;
        const billableRequests = requests - freeRequests;
        return { class: c, requests, freeRequests, billableRequests, pricePer1000: price(c), amount: toCents((billableRequests / 1000) * price(c)) };
      });
    const requests = lines.reduce((n, l) => n + l.requests, 0);
    const freeRequestsUsed = lines.reduce((n, l) => n + l.freeRequests, 0);
    return {
      keyId,
      requests,
      freeAllowance: plan.freeRequestsPerMonth,
      freeRequestsUsed,
      billableRequests: requests - freeRequestsUsed,
      lines,
      total: toCents(lines.reduce((sum, l) => sum + l.amount, 0)),
    };
  });

  return {
    month,
    currency: plan.currency,
    freeRequestsPerMonth: plan.freeRequestsPerMonth,
    keys,
    totals: {
      requests: keys.reduce((n, k) => n + k.requests, 0),
      billableRequests: keys.reduce((n, k) => n + k.billableRequests, 0),
      amount: toCents(keys.reduce((sum, k) => sum + k.total, 0)),
    },
  };
}
