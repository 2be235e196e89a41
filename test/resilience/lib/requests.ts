/**
 * Request generation for the contract fuzzer: one fast-check arbitrary per operation that yields
 * a whole HTTP request (path parameters, query string, headers, body), mostly close to what the
 * schema accepts and otherwise wrong in one of the ways clients get things wrong.
 */
import fc from 'fast-check';
import type { Operation } from './contract.js';
import { poolFor, type IdPools } from './pools.js';
import { awkwardString, mutate, mutation, POLLUTION_OBJECTS, REF_PREFIX, valid, wrongTypeValue, type Pools } from './schema-arb.js';

export interface GeneratedRequest {
  method: 'GET' | 'POST';
  path: Record<string, string>;
  query: string[];
  headers: Record<string, string | string[]>;
  /** Raw body text (undefined: no body at all). */
  payload?: string;
  /** What kind of body this was (valid, mutated or garbage), for the report. */
  shape: 'valid' | 'mutated' | 'garbage';
}

/** Well-formed X-Actor values (and none at all): what a well-behaved client sends. */
const GOOD_ACTORS: (string | undefined)[] = [undefined, 'human:fuzz', 'editorial:desk', 'Human:Mixed.Case', 'ai', 'AI', 'system', 'ai:model-7', 'system:cron'];
/** Everything else a client can put in X-Actor. */
const BAD_ACTORS: (string | string[])[] = [
  'human',
  'human:',
  ':nobody',
  'robot:r2',
  'human:two words',
  'human::colons',
  'human:道',
  'human:😀',
  `human:${'x'.repeat(300)}`,
  '   ',
  ['human:a', 'ai:b'],
];

const GOOD_CONTENT_TYPES = ['application/json', 'application/json', 'application/json; charset=utf-8', 'Application/JSON'];
const BAD_CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'application/xml', undefined];

const GARBAGE_BODIES = [
  '',
  '{',
  '{"a":',
  'null',
  '[]',
  '[{}]',
  '"text"',
  '0',
  '-1e309',
  'true',
  '{"a":1,"a":2}',
  '\u0000',
  '\ufeff{}',
  '{}garbage',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  `{"q":"${'道'.repeat(100)}"`,
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  // Over the 1 MiB body limit: 413 in the service's body.
  `{"q":"${'x'.repeat(1_100_000)}"}`,
];

const QUERY_EXTRAS = [
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  '__proto__.polluted=yes',
  '__proto__=1',
  'unknown=1',
  '%ZZ=1',
  'a=%E0%A4%A',
  `${'k'.repeat(5000)}=1`,
  'limit=1&limit=2',
  '=',
  '&&&',
];

const stringify = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    // a lone surrogate: percent-encode its (invalid) UTF-8 form by hand
    return Array.from(s, (ch) => (ch.length === 1 && ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(ch))).join('');
  }
};

type Dimension = 'path' | 'query' | 'body' | 'content-type' | 'actor' | 'headers';

/**
 * One request for an operation. A third of the requests are clean (everything as the schema and
 * the contract's header rules want: these reach the handlers), most of the rest break exactly one
 * thing (path, query, body, content type, X-Actor, other headers), and some break everything.
 */
export function requestArbitrary(op: Operation, idPools: IdPools, tokens: string[]): fc.Arbitrary<GeneratedRequest> {
  const pools: Pools = { idsFor: (field) => poolFor(idPools, field, op.path) };
  const goodPathValue = (p: Operation['pathParams'][number]) => {
    const known = pools.idsFor(p.name);
    return fc.oneof(
      ...(known ? [{ arbitrary: fc.constantFrom(...known), weight: 6 }] : []),
      { arbitrary: fc.nat({ max: 400 }).map((n) => `${REF_PREFIX}${n}`), weight: known ? 1 : 6 },
      { arbitrary: valid(p.schema, pools, p.name).map(String), weight: 1 },
    );
  };
  const path = (faulty: boolean): fc.Arbitrary<Record<string, string>> =>
    fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, faulty ? fc.oneof(awkwardString().filter((s) => s.length > 0), goodPathValue(p)) : goodPathValue(p)])));

  const goodQueryValue = (p: Operation['queryParams'][number]) => valid(p.schema, pools, p.name).map(stringify);
  const badQueryValue = () => fc.oneof(awkwardString(), wrongTypeValue().map(stringify));
  const query = (faulty: boolean): fc.Arbitrary<string[]> =>
    fc
      .tuple(
        fc.tuple(
          ...op.queryParams.map((p) =>
            fc.oneof(
              { arbitrary: goodQueryValue(p).map((v) => [`${enc(p.name)}=${enc(v)}`]), weight: 5 },
              { arbitrary: fc.constant([] as string[]), weight: p.required ? (faulty ? 1 : 0) : 3 },
              ...(faulty
                ? [
                    { arbitrary: badQueryValue().map((v) => [`${enc(p.name)}=${enc(v)}`]), weight: 4 },
                    { arbitrary: fc.tuple(goodQueryValue(p), goodQueryValue(p)).map(([a, b]) => [`${enc(p.name)}=${enc(a)}`, `${enc(p.name)}=${enc(b)}`]), weight: 1 },
                  ]
                : []),
            ),
          ),
        ),
        faulty ? fc.subarray(QUERY_EXTRAS, { minLength: 0, maxLength: 2 }) : fc.constant([] as string[]),
      )
      .map(([params, extras]) => [...params.flat(), ...extras]);

  const goodBody: fc.Arbitrary<{ payload?: string; shape: GeneratedRequest['shape'] }> = op.body
    ? valid(op.body.schema, pools).map((v) => ({ payload: JSON.stringify(v), shape: 'valid' as const }))
    : fc.constant({ shape: 'valid' as const });
  const badBody: fc.Arbitrary<{ payload?: string; shape: GeneratedRequest['shape'] }> = op.body
    ? fc.oneof(
        {
          arbitrary: fc.tuple(valid(op.body.schema, pools), mutation()).map(([v, m]) => ({ payload: JSON.stringify(mutate(v, m)), shape: 'mutated' as const })),
          weight: 3,
        },
        {
          arbitrary: fc.oneof(
            fc.constantFrom(...GARBAGE_BODIES).map((payload) => ({ payload, shape: 'garbage' as const })),
            fc.constantFrom(...POLLUTION_OBJECTS).map((v) => ({ payload: JSON.stringify(v), shape: 'garbage' as const })),
            fc.jsonValue({ maxDepth: 3 }).map((v) => ({ payload: JSON.stringify(v), shape: 'garbage' as const })),
            fc.constant({ shape: 'garbage' as const }),
          ),
          weight: 2,
        },
      )
    : // A body on an endpoint that takes none.
      fc.constantFrom('{}', '{"__proto__":{"polluted":"yes"}}', '[1,2]', 'not json').map((payload) => ({ payload, shape: 'garbage' as const }));

  const request = (faults: Set<Dimension>) =>
    fc.record({
      path: path(faults.has('path')),
      query: query(faults.has('query')),
      body: faults.has('body') ? badBody : goodBody,
      actor: faults.has('actor') ? fc.constantFrom<string | string[] | undefined>(...BAD_ACTORS) : fc.constantFrom(...GOOD_ACTORS),
      contentType: faults.has('content-type') ? fc.constantFrom(...BAD_CONTENT_TYPES) : fc.constantFrom<string | undefined>(...GOOD_CONTENT_TYPES),
      token: fc.constantFrom(...tokens),
      requestId: faults.has('headers') ? fc.constantFrom<string | undefined>('trace-1', 'bad id <x>', 'a'.repeat(65), '道', '') : fc.constant(undefined),
      accept: faults.has('headers') ? fc.constantFrom<string | undefined>('text/html', 'application/xml', '*/*', undefined) : fc.constant(undefined),
    });

  const ALL: Dimension[] = ['path', 'query', 'body', 'content-type', 'actor', 'headers'];
  const usable = ALL.filter((d) => (d === 'path' ? op.pathParams.length > 0 : d === 'content-type' ? !!op.body : true));
  return fc
    .oneof(
      { arbitrary: request(new Set()), weight: 4 },
      { arbitrary: fc.constantFrom(...usable).chain((d) => request(new Set([d]))), weight: 5 },
      { arbitrary: request(new Set(ALL)), weight: 2 },
    )
    .map(({ path, query, body, actor, contentType, token, requestId, accept }) => {
      const headers: Record<string, string | string[]> = { authorization: `Bearer ${token}` };
      if (actor !== undefined) headers['x-actor'] = actor;
      if (requestId !== undefined) headers['x-request-id'] = requestId;
      if (accept !== undefined) headers.accept = accept;
      if (body.payload !== undefined && contentType !== undefined) headers['content-type'] = contentType;
      return { method: op.method, path, query, headers, ...(body.payload !== undefined ? { payload: body.payload } : {}), shape: body.shape };
    });
}

/** Replaces REF_PREFIX markers (raw or percent-encoded) with ids seen so far, escaped for where they land. */
export function resolveRefs(text: string, seen: string[], mode: 'raw' | 'json' | 'uri' = 'raw'): string {
  return text.replace(/(?:@@ref:|%40%40ref%3A)(\d+)/g, (_m, n: string) => {
    const id = seen.length ? seen[Number(n) % seen.length]! : 'no-record-yet';
    return mode === 'json' ? JSON.stringify(id).slice(1, -1) : mode === 'uri' ? enc(id) : id;
  });
}

export function buildUrl(op: Operation, req: GeneratedRequest, seen: string[]): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => enc(resolveRefs(req.path[name] ?? 'x', seen)));
  const query = req.query.map((part) => resolveRefs(part, seen, 'uri')).join('&');
  return query ? `${path}?${query}` : path;
}

/** Ids of records a 2xx answer names (any string under a key `id`), for later references. */
export function harvestIds(value: unknown, into: string[], limit = 400) {
  const walk = (v: unknown, depth: number) => {
    if (depth > 6 || into.length >= limit || !v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v.slice(0, 20)) walk(item, depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(v)) {
      if (key === 'id' && typeof item === 'string' && item.length <= 100 && !into.includes(item)) into.push(item);
      else walk(item, depth + 1);
    }
  };
  walk(value, 0);
}
