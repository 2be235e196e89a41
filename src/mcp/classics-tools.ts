import { randomUUID } from 'node:crypto';
import { answerIlluminate } from '../classics/illumination/illuminate.js';
import { buildInsightsGrouped } from '../classics/illumination/insights.js';
import { IlluminateAnswerSchema, InsightBundleSchema } from '../classics/illumination/schemas.js';
import { runRuntime } from '../classics/runtime/modes.js';
import { ownerFor } from '../classics/runtime/personal-graph.js';
import * as R from '../classics/runtime/schemas.js';
import * as S from '../classics/schemas.js';
import { recordAudit } from '../classics/tq/audit.js';
import { answerTrustedQuery } from '../classics/tq/pipeline.js';
import { actorOf, type McpCaller } from './caller.js';
import { defineTool, type ToolDef } from './tool.js';

/** productId of runtime calls made over MCP when the caller names none: no product adapter, so every pack. */
export const MCP_PRODUCT_ID = 'mcp';

const productId = R.RuntimeRequestBody.shape.productId
  .default(MCP_PRODUCT_ID)
  .describe(`product whose default packs scope the call (e.g. daily-reflection, classics-study); default "${MCP_PRODUCT_ID}": every pack`);
const scope = { productId: true, releaseId: true, locale: true, knowledgePackIds: true } as const;

const RuntimeLookupInput = R.RuntimeRequestBody.pick({ ...scope, objectId: true })
  .required({ objectId: true })
  .extend({ productId });
const RuntimeCompareInput = R.RuntimeRequestBody.pick({ ...scope, relationId: true, objectId: true, query: true }).extend({ productId });

/** The reference request without `owner`: over MCP the owner is always the key's owner. */
const SaveReferenceInput = S.ReferenceRequest.omit({ owner: true });
const ListReferencesInput = S.ReferencesQuery.omit({ owner: true });

/** The caller's own owner, by the same rule as the REST personal-graph routes. */
const ownerOf = (caller: McpCaller) => ownerFor(caller, undefined, 'owner');

export const CLASSICS_TOOLS: ToolDef[] = [
  defineTool({
    name: 'trusted_query',
    title: 'Trusted query',
    description:
      'Evidence-bound answer from the classics (Daodejing, Analects, Yijing, Diamond Sutra, Chuanxilu) with claims, verbatim citations and a trust level, ' +
      'or an explicit abstention (GATE_BLOCKED with the Gate category, OUT_OF_SCOPE, NO_EVIDENCE, SIGNIFICANT_CONFLICT). Same as POST /api/classics/v1/trusted-query; every call is audited.',
    input: S.TrustedQueryRequest,
    output: S.TrustedAnswerSchema,
    style: 'classics',
    readOnly: true,
    run: (args, caller, { lib, ledger }) => {
      const { answer, trace } = answerTrustedQuery(args, lib);
      recordAudit(ledger, { query: args.query, expressionMode: args.expression_mode, releaseId: lib.releaseId, actor: actorOf(caller) }, answer, trace);
      return answer;
    },
  }),
  defineTool({
    name: 'illuminate',
    title: 'Four-tradition illumination',
    description:
      'Four perspectives (Daoist, Confucian, Buddhist, Yangming) on a question, each resting on its own classic or saying it has no evidence, with contrast, an insight, a reflective question and citations; ' +
      'a Gate-blocked or out-of-scope question gets an abstention. Same as POST /api/classics/v1/illuminate.',
    input: S.IlluminateRequest,
    output: IlluminateAnswerSchema,
    style: 'classics',
    readOnly: true,
    run: (args, _caller, { lib }) => answerIlluminate(args, lib),
  }),
  defineTool({
    name: 'insights',
    title: 'Insights for a situation',
    description:
      'A situation (userText or contextSummary) in; at most one insight per tradition with citations, small actions and an optional synthesis out, stored as a replayable snapshot ' +
      '(privacyMode private: the text is never stored). Same as POST /api/classics/v1/insights.',
    input: S.InsightRequest,
    output: InsightBundleSchema,
    style: 'classics',
    readOnly: true,
    run: (args, _caller, { lib, ledger }) => buildInsightsGrouped(args, lib, { requestId: `in_${randomUUID()}`, ledger }),
  }),
  defineTool({
    name: 'runtime_lookup',
    title: 'Look up a knowledge object',
    description:
      'A concept, passage, claim, source or situation by id (e.g. concept.wuwei, ddj.8) with its typed relations, graph neighbourhood, claims, misreadings, conflicts and citations. ' +
      'Same as POST /api/classics/v1/runtime with runtimeMode lookup.',
    input: RuntimeLookupInput,
    output: R.RuntimeResult,
    style: 'classics',
    readOnly: true,
    run: (args, _caller, { lib, ledger }) => runRuntime({ runtimeMode: 'lookup', ...args }, { lib, ledger }, `mcp_${randomUUID()}`),
  }),
  defineTool({
    name: 'runtime_compare',
    title: 'Compare two objects or a recorded relation',
    description:
      'relationId: a recorded conflict (e.g. conflict.gewu) or a concept relation `<conceptA>|<type>|<conceptB>` (e.g. concept.wuwei|non_equivalent|concept.common.idleness); ' +
      'or objectId and query naming two objects (query is the second id). Similarities, differences and non-equivalences each carry evidence; a comparison never equates non-equivalent concepts. ' +
      'Same as POST /api/classics/v1/runtime with runtimeMode compare.',
    input: RuntimeCompareInput,
    output: R.RuntimeResult,
    style: 'classics',
    readOnly: true,
    run: (args, _caller, { lib, ledger }) => runRuntime({ runtimeMode: 'compare', ...args }, { lib, ledger }, `mcp_${randomUUID()}`),
  }),
  defineTool({
    name: 'save_reference',
    title: 'Save a personal reference',
    description:
      "Saves an object of the knowledge (concept, passage, claim, source, situation, reading path or conflict id) in the key owner's personal graph; saving it again updates the note. " +
      'Same as POST /api/personal-graph/v1/references for a per-user key.',
    input: SaveReferenceInput,
    output: R.ReferenceResponse,
    style: 'classics',
    readOnly: false,
    run: (args, caller, { personal }) => personal.save(ownerOf(caller), args, actorOf(caller)),
  }),
  defineTool({
    name: 'list_references',
    title: 'List personal references',
    description: "The key owner's personal references, oldest first. Same as GET /api/personal-graph/v1/references for a per-user key.",
    input: ListReferencesInput,
    output: R.ReferencesResponse,
    style: 'classics',
    readOnly: true,
    run: (_args, caller, { personal }) => {
      const owner = ownerOf(caller);
      const references = personal.list(owner);
      return { owner, total: references.length, references };
    },
  }),
];
