import type { Builders } from '../pdf/model/kinds.js';
import { colorBuilders } from '../pdf/model/color.js';
import { fileStructureBuilders } from '../pdf/model/file-structure.js';
import { fontBuilders } from '../pdf/model/fonts.js';
import { graphicsBuilders } from '../pdf/model/graphics.js';
import { interactiveBuilders } from '../pdf/model/interactive.js';
import { metadataBuilders } from '../pdf/model/metadata.js';

/** Every family of the model's kinds, in the order their builders run. */
export const MODEL_FAMILIES: readonly Builders[] = [
  fileStructureBuilders,
  colorBuilders,
  graphicsBuilders,
  fontBuilders,
  interactiveBuilders,
  metadataBuilders,
];
