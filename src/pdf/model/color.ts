import type { Builders } from './kinds.js';

/** The colour kinds (colour spaces, ICC profiles, output intents, device colour in use) of the model (being written). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ColorKinds {}

export const colorBuilders: Builders = {};
