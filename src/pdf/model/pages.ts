import type { CosFile } from '../cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef } from '../cos/syntax.js';

/** A page of the page tree: its dictionary, its object number and its number in the document (1-based). */
export interface PageEntry {
  dict: PdfDict;
  num: number | undefined;
  pageNumber: number;
}

const MAX_PAGES = 100_000;
const MAX_DEPTH = 64;

/** The pages in document order, as the page tree lists them; a node met twice is read once. */
export function pageEntries(cos: CosFile): PageEntry[] {
  const out: PageEntry[] = [];
  const seen = new Set<number>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || out.length >= MAX_PAGES) return;
    const num = value instanceof PdfRef ? value.num : undefined;
    if (num !== undefined) {
      if (seen.has(num)) return;
      seen.add(num);
    }
    const node = cos.resolve(value as never);
    if (!isDict(node)) return;
    if (nameOf(node.get('Type')) === 'Page' || (!node.has('Kids') && node.has('Contents'))) {
      out.push({ dict: node, num, pageNumber: out.length + 1 });
      return;
    }
    for (const kid of cos.array(node, 'Kids')) visit(kid, depth + 1);
  };
  visit(cos.catalog?.get('Pages'), 0);
  return out;
}
