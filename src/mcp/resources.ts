import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Library } from '../classics/library.js';
import { passageRef, sourceView } from '../classics/runtime/views.js';

/** JSON-RPC code the MCP specification gives an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

export const sourceUri = (sourceId: string) => `classics://sources/${encodeURIComponent(sourceId)}`;
/** A passage by its locator (e.g. `Daodejing 8`), URL-encoded: `classics://passage/Daodejing%208`. */
export const passageUri = (locator: string) => `classics://passage/${encodeURIComponent(locator)}`;

const json = (uri: URL, body: unknown) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body) }] });
function variable(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // not valid percent-encoding: looked up as written, so it is simply not found
  }
}
const notFound = (uri: URL, what: string) => new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${what}`, { uri: uri.href });

/**
 * The classics as resources: each source (metadata as the runtime shows it, plus its passages'
 * locators and URIs in reading order) and each passage by locator (the runtime's passage view:
 * id, locator, source, pack, tradition, verbatim text and English rendering). Passages are also
 * found by id (`classics://passage/ddj.8`).
 */
export function registerResources(server: McpServer, lib: Library, checkCaller: () => unknown) {
  const k = lib.knowledge;

  const sources = () =>
    [...k.sources.values()].map((s) => ({
      uri: sourceUri(s.id),
      name: s.id,
      title: `${s.title} (${s.title_en})`,
      description: `${s.edition}; grade ${s.source_grade}; ${s.license}`,
      mimeType: 'application/json',
    }));
  server.registerResource(
    'source',
    new ResourceTemplate('classics://sources/{sourceId}', { list: () => (checkCaller(), { resources: sources() }) }),
    { title: 'Classical sources', description: 'A source of the classics with its edition, grade, license and the locators of its passages', mimeType: 'application/json' },
    (uri, variables) => {
      checkCaller();
      const id = variable(variables.sourceId);
      const source = k.sources.get(id);
      if (!source) throw notFound(uri, `no source ${id}`);
      const passages = k.passages.filter((p) => p.sourceId === id).map((p) => ({ id: p.id, locator: p.locator, uri: passageUri(p.locator) }));
      return json(uri, { source: sourceView(lib, source), passages });
    },
  );

  const passages = () => k.passages.map((p) => ({ uri: passageUri(p.locator), name: p.locator, title: p.title ? `${p.locator} ${p.title}` : p.locator, mimeType: 'application/json' }));
  server.registerResource(
    'passage',
    new ResourceTemplate('classics://passage/{locator}', { list: () => (checkCaller(), { resources: passages() }) }),
    { title: 'Passages by locator', description: 'A passage of the classics by its locator (URL-encoded, e.g. Daodejing%208) or id: verbatim text and English rendering', mimeType: 'application/json' },
    (uri, variables) => {
      checkCaller();
      const locator = variable(variables.locator);
      const passage = k.passageByLocator.get(locator) ?? k.passageById.get(locator);
      if (!passage) throw notFound(uri, `no passage ${locator}`);
      return json(uri, passageRef(passage));
    },
  );
}
