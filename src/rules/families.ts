import type { Builders } from '../pdf/model/node.js';
import type { Kinds } from '../pdf/model/kinds.js';
import { colorBuilders } from '../pdf/model/color.js';
import { fileStructureBuilders } from '../pdf/model/file-structure.js';
import { fontBuilders } from '../pdf/model/fonts.js';
import { graphicsBuilders } from '../pdf/model/graphics.js';
import { interactiveBuilders } from '../pdf/model/interactive.js';
import { metadataBuilders } from '../pdf/model/metadata.js';
import { structureBuilders } from '../pdf/model/structure.js';
import { tableBuilders } from '../pdf/model/structure/tables.js';
import { taggedContentBuilders } from '../pdf/model/tagged-content.js';
import { languageBuilders } from '../pdf/model/language.js';

/** Every family of the model's kinds, in the order their builders run. */
export const MODEL_FAMILIES: readonly Builders<Kinds>[] = [
  fileStructureBuilders,
  colorBuilders,
  graphicsBuilders,
  fontBuilders,
  interactiveBuilders,
  metadataBuilders,
  structureBuilders,
  tableBuilders,
  taggedContentBuilders,
  languageBuilders,
];
