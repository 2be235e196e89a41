/**
 * One autocannon run at -c CONNECTIONS -p 1 (latency at higher pipelining is queueing, not
 * service time). `next(i)` gives the i-th request's {path, body}; requests rotate through inputs.
 */
import autocannon from 'autocannon';

export async function run(base, { name, method = 'GET', path, token, next, duration, connections }) {
  let i = 0;
  const headers = { authorization: `Bearer ${token}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) };
  const request = {
    method,
    path,
    headers,
    setupRequest: (req) => {
      if (!next) return req;
      const input = next(i++);
      return { ...req, ...(input.path ? { path: input.path } : {}), ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}) };
    },
  };
  const result = await autocannon({ url: base, connections, pipelining: 1, duration, requests: [request] });
  return {
    scenario: name,
    method,
    path,
    reqPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Sends one request outside the load run and returns {status, body}: to check a scenario does what it says. */
export async function probe(base, { method = 'GET', path, token, body }) {
  const r = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  let json;
  try {
    json = await r.json();
  } catch {
    json = undefined;
  }
  return { status: r.status, body: json };
}
