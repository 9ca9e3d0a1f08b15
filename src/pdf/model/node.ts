import type { CosFile } from '../cos/file.js';
import type { PdfDict, PdfValue } from '../cos/syntax.js';

/**
 * The model the rules judge: every kind of object a published rule speaks of, by name. A node knows where it
 * is in the file (`where`, said to a person: "object 12", "page 3, content stream") and its own properties, as
 * read from the file; it knows no clause and no verdict. Document kinds are read once per file, from its objects;
 * content kinds once per page, from the page's content streams and the forms they draw. Each family of kinds
 * (file structure, colour, fonts, ...) declares its own and is read by its own builders; `kinds.ts` gathers them.
 */
export interface ModelNode {
  where: string;
}

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
 * Where builders hand their nodes of the kinds `K`: each goes to the rules of its kind at once and is then
 * forgotten, so that a file of a million objects is judged in the memory of one. `wants` lets a builder skip a
 * kind no rule reads.
 */
export interface Emitter<K> {
  wants(kind: keyof K): boolean;
  emit<N extends keyof K>(kind: N, node: K[N]): void;
}

/** How one family of kinds `K` is read: from the whole file, from each page, or both. */
export interface Builders<K> {
  document?: (source: DocumentSource, out: Emitter<K>) => void;
  page?: (source: PageSource, out: Emitter<K>) => void;
}
