import type { Builders } from './node.js';
import {
  type IccProfileNode,
  type OutputIntentNode,
  type OutputIntentsNode,
  outputIntents,
} from './color/intents.js';
import {
  type ContentStreamNode,
  type DeviceColorNode,
  type DeviceNNode,
  type IccCmykPaintNode,
  PageColor,
  type PageColorKinds,
  type UndefinedOperatorNode,
} from './color/usage.js';
import type { SeparationNode } from './color/separations.js';

export type {
  ContentStreamNode,
  DeviceColorNode,
  DeviceNNode,
  IccCmykPaintNode,
  IccProfileNode,
  OutputIntentNode,
  OutputIntentsNode,
  SeparationNode,
  UndefinedOperatorNode,
};

/**
 * The colour kinds: the output intents and their profiles (read once per file); per page, the colour spaces
 * its content paints with (device spaces and what replaces them, ICC profiles, DeviceN and Separation spaces,
 * ICCBased CMYK under overprint), and what its content streams hold besides colour (undefined operators,
 * resources found only in a drawer's).
 */
export interface ColorKinds extends PageColorKinds {
  outputIntent: OutputIntentNode;
  outputIntents: OutputIntentsNode;
}

const PAGE_KINDS = [
  'iccProfile',
  'deviceColor',
  'deviceN',
  'separation',
  'iccCmykPaint',
  'undefinedOperator',
  'contentStream',
] as const;

export const colorBuilders: Builders<ColorKinds> = {
  document: ({ cos }, out) => {
    const read = outputIntents(cos);
    if (out.wants('outputIntent')) for (const intent of read.intents) out.emit('outputIntent', intent);
    if (out.wants('outputIntents') && read.array) out.emit('outputIntents', read.array);
    if (out.wants('iccProfile')) for (const profile of read.profiles) out.emit('iccProfile', profile);
  },
  page: (source, out) => {
    if (!PAGE_KINDS.some((kind) => out.wants(kind))) return;
    new PageColor(source, out).run();
  },
};
