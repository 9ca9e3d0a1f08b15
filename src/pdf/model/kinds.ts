import type { CosFile } from '../cos/file.js';
import type { PdfDict, PdfValue } from '../cos/syntax.js';
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

/**
 * The model the rules judge: every kind of object a published rule speaks of, by name. A node knows where it
 * is in the file (`where`, said to a person: "object 12", "page 3, content stream") and its own properties, as
 * read from the file; it knows no clause and no verdict. Document kinds are read once per file, from its objects;
 * content kinds once per page, from the page's content streams and the forms they draw.
 */
export interface ModelNode {
  where: string;
}

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

/** What a builder reads a file's document kinds from: the objects, and the file's first KiB. */
export interface DocumentSource {
  cos: CosFile;
  head: Uint8Array;
}

/** What a builder reads a page's content kinds from. */
export interface PageSource {
  cos: CosFile;
  page: PdfDict;
  /** 1-based. */
  pageNumber: number;
  resources: PdfValue | undefined;
}

/**
 * Where builders hand their nodes: each goes to the rules of its kind at once and is then forgotten, so that a
 * file of a million objects is judged in the memory of one. `wants` lets a builder skip a kind no rule reads.
 */
export interface Emitter {
  wants(kind: KindName): boolean;
  emit<K extends KindName>(kind: K, node: Kinds[K]): void;
}

export type DocumentBuilder = (source: DocumentSource, out: Emitter) => void;
export type PageBuilder = (source: PageSource, out: Emitter) => void;

/** How one family of kinds is read: from the whole file, from each page, or both. */
export interface Builders {
  document?: DocumentBuilder;
  page?: PageBuilder;
}
