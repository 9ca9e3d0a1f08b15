import type { components } from '../../generated/openapi.js';

/**
 * The shapes openapi.yaml gives the records this service returns and writes (report.json included), as
 * generated from it: domain code that builds them uses these, so it cannot drift from the contract.
 */
export type Schemas = components['schemas'];
