import type { Builders } from './kinds.js';

/** The fonts kinds of the model (being written). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FontKinds {}

export const fontBuilders: Builders = {};
