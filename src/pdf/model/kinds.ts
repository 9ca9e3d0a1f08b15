import type { FileStructureKinds } from './file-structure.js';
import type { ColorKinds } from './color.js';
import type { GraphicsKinds } from './graphics.js';
import type { FontKinds } from './fonts.js';
import type { InteractiveKinds } from './interactive.js';
import type { MetadataKinds } from './metadata.js';
import type { StructureKinds } from './structure.js';
import type { TableKinds } from './structure/tables.js';
import type { TaggedContentKinds } from './tagged-content.js';
import type { LanguageKinds } from './language.js';

/** Every kind of the model (`node.ts`), by name: the families' kinds gathered. */
export type Kinds = FileStructureKinds &
  ColorKinds &
  GraphicsKinds &
  FontKinds &
  InteractiveKinds &
  MetadataKinds &
  StructureKinds &
  TableKinds &
  TaggedContentKinds &
  LanguageKinds;
export type KindName = keyof Kinds;
