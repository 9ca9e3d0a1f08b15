import type { Builders } from './kinds.js';

/** The metadata kinds of the model (being written). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MetadataKinds {}

export const metadataBuilders: Builders = {};
