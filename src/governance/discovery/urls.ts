/** Web addresses as discovery accepts them: absolute http or https, no embedded credentials. */
export function webUrl(raw: string): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `scheme ${url.protocol.replace(':', '')} is not http or https` };
  if (url.username || url.password) return { ok: false, reason: 'URL carries credentials' };
  if (!url.hostname) return { ok: false, reason: 'URL has no host' };
  return { ok: true, url };
}

/** One form per address, for deduplication: lower-case host, no fragment, no default port, no trailing slash. */
export function canonicalUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  const path = copy.pathname.replace(/\/+$/, '');
  return `${copy.protocol}//${copy.host.toLowerCase()}${path}${copy.search}`;
}
