import type { Builders } from './kinds.js';

/** The interactive kinds of the model (being written). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface InteractiveKinds {}

export const interactiveBuilders: Builders = {};
