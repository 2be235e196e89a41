import type { Product } from '../../classics/model.js';

/** The endpoint behind each discovery capability a product fixture can have. */
export const CAPABILITY_ENDPOINTS: Record<string, string> = {
  sourceRegistration: 'POST /api/classics/v1/discovery/sources',
  signals: 'POST /api/classics/v1/discovery/signals',
  openWebSearch: 'POST /api/classics/v1/discovery/open-web/search',
  externalPacks: 'POST /api/classics/v1/discovery/external-packs',
  agentTools: 'POST /api/classics/v1/discovery/agent/verify-tool',
};

/**
 * The five products of the served release (packs/classics/core/products.json) and which discovery
 * capabilities each has. Every product lists every capability name (false when it lacks it), so
 * the matrix is rectangular. The matrix describes; it does not gate calls (the contract gives
 * discovery requests no product identity).
 */
export function productsMatrix(products: Product[]) {
  const names = [...new Set([...Object.keys(CAPABILITY_ENDPOINTS), ...products.flatMap((p) => Object.keys(p.discoveryCapabilities))])];
  return {
    total: products.length,
    capabilities: names.map((name) => ({ name, endpoint: CAPABILITY_ENDPOINTS[name] ?? null })),
    products: products.map((p) => ({
      productId: p.id,
      name: p.name,
      capabilities: Object.fromEntries(names.map((name) => [name, p.discoveryCapabilities[name] === true])),
    })),
  };
}
