import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ServiceError } from '../../platform/errors.js';
import type { Library } from '../library.js';
import type { Product } from '../model.js';
import { requireModeFields } from './modes.js';
import { RuntimeRequestBody, type RuntimeResult } from './schemas.js';

/**
 * Product adapters (packs/classics/core/products.json): each product's own request is validated
 * against its JSON Schema (requestShape), mapped to a runtime request by runtimeMapping
 * (`<runtimeField>From: <productField>`, plus runtimeMode), run, and the runtime result projected
 * to the product's responseProjection.fields (dotted paths).
 */
export class Adapters {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly lib: Library) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const product of lib.knowledge.products) this.validators.set(product.id, ajv.compile(product.requestShape));
  }

  list() {
    const adapters = this.lib.knowledge.products.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      defaultProjectionId: p.defaultProjectionId,
      defaultPackIds: p.defaultPackIds,
      requestShape: p.requestShape,
      runtimeMapping: { ...p.runtimeMapping },
      responseProjection: { fields: p.responseProjection.fields },
    }));
    return { releaseId: this.lib.releaseId, total: adapters.length, adapters };
  }

  product(adapterId: string): Product {
    const product = this.lib.knowledge.products.find((p) => p.id === adapterId);
    if (!product) throw new ServiceError(404, 'NOT_FOUND', `no adapter ${adapterId} (known: ${this.lib.knowledge.products.map((p) => p.id).join(', ')})`);
    return product;
  }

  /** The runtime mode an adapter maps to, or null for an unknown adapter. */
  modeOf(adapterId: string): RuntimeRequestBody['runtimeMode'] | null {
    return this.lib.knowledge.products.find((p) => p.id === adapterId)?.runtimeMapping.runtimeMode ?? null;
  }

  /** Validate, map, run (with `run`, which is POST /runtime) and project. */
  execute(adapterId: string, productRequest: Record<string, unknown>, run: (runtime: RuntimeRequestBody) => RuntimeResult) {
    const product = this.product(adapterId);
    const runtime = this.toRuntime(product, productRequest);
    return { adapterId, productRequest, runtime, response: project(run(runtime), product.responseProjection.fields) };
  }

  /** The product's request, checked against its schema and mapped to a runtime request. */
  toRuntime(product: Product, productRequest: Record<string, unknown>): RuntimeRequestBody {
    const validate = this.validators.get(product.id)!;
    if (!validate(productRequest)) throw new ServiceError(400, 'INVALID_REQUEST', (validate.errors ?? []).map((e) => problem(product, e)).join('; '));
    const mapped: Record<string, unknown> = { runtimeMode: product.runtimeMapping.runtimeMode, productId: product.id, knowledgePackIds: product.defaultPackIds };
    for (const [key, from] of Object.entries(product.runtimeMapping)) {
      if (key === 'runtimeMode' || !key.endsWith('From')) continue;
      const value = productRequest[from];
      if (typeof value === 'string') mapped[key.slice(0, -'From'.length)] = value;
    }
    const runtime = RuntimeRequestBody.parse(mapped);
    try {
      requireModeFields(runtime);
    } catch (error) {
      throw inProductTerms(product, error);
    }
    return runtime;
  }
}

function problem(product: Product, e: ErrorObject): string {
  const at = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const field = (name: string) => `body${at ? `.${at}` : ''}.${name}`;
  if (e.keyword === 'required') return `${field(String(e.params.missingProperty))}: required by the ${product.name} request`;
  if (e.keyword === 'additionalProperties') return `${field(String(e.params.additionalProperty))}: not a field of the ${product.name} request`;
  return `body${at ? `.${at}` : ''}: ${e.message ?? 'invalid'}`;
}

/** A runtime field the product did not fill, named by the product's own field. */
function inProductTerms(product: Product, error: unknown): unknown {
  if (!(error instanceof ServiceError) || error.statusCode !== 400) return error;
  const fieldOf = (runtimeField: string) => product.runtimeMapping[`${runtimeField}From`] ?? runtimeField;
  if (product.runtimeMapping.runtimeMode === 'compare') {
    return new ServiceError(
      400,
      'INVALID_REQUEST',
      `body.${fieldOf('relationId')}: the ${product.name} request needs ${fieldOf('relationId')}, or ${fieldOf('objectId')} and ${fieldOf('query')} naming two objects`,
    );
  }
  const runtimeField = /^body\.(\w+):/.exec(error.message)?.[1] ?? '';
  return new ServiceError(400, 'INVALID_REQUEST', `body.${fieldOf(runtimeField)}: must not be blank (the ${product.name} adapter maps it to ${runtimeField})`);
}

/** The result reduced to the given dotted paths; a path the result lacks is left out. */
export function project(result: RuntimeResult, fields: string[]): Record<string, unknown> {
  if (result.abstention) return { abstention: result.abstention };
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const parts = field.split('.');
    let value: unknown = result;
    for (const part of parts) {
      value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[part] : undefined;
      if (value === undefined) break;
    }
    if (value === undefined) continue;
    let target = out;
    for (const part of parts.slice(0, -1)) {
      if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts.at(-1)!] = value;
  }
  return out;
}
