import type { Builders } from './kinds.js';

/** The graphics kinds (XObjects, images, forms, graphics states, halftones, groups, intents) of the model (being written). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface GraphicsKinds {}

export const graphicsBuilders: Builders = {};
