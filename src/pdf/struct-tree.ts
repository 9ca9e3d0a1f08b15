import type { CosFile } from './cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef, type PdfValue, textString } from './cos/syntax.js';
import { markedContentLanguage } from './content.js';
import { STANDARD_STRUCTURE_TYPES, structAttribute } from './model/structure/tree.js';

const MAX_STRUCT_NODES = 200_000;
const MAX_LISTED = 20;
const MAX_TABLE_CELLS = 10_000;
/** Pages whose content is read for the language of marked content the structure gives none. */
const MAX_LANGUAGE_PAGES = 50;

export interface StructFacts {
  struct_figures: number;
  struct_figures_without_alt: number;
  struct_content: number;
  struct_content_without_language: number;
  struct_languages: string[];
  struct_types_nonstandard: string[];
  struct_heading_skips: string[];
  struct_table_headers_without_scope: number;
}

/** Of one table: its header and data cells, whether they have a Scope and name Headers. */
interface TableCell {
  role: 'TH' | 'TD';
  scoped: boolean;
  headers: boolean;
}

/**
 * The structure tree's facts, in one walk in document order and through its RoleMap: figures and their
 * alternate text, the content it refers to and the language each inherits, the types no standard type stands
 * for, how the numbered headings step, and table header cells without a scope. (What the tree breaks of
 * ISO 14289-1 is the rules layer's: src/rules/pdfua.)
 */
export function structFacts(cos: CosFile, catalog: PdfDict | undefined): StructFacts {
  const root = cos.dict(catalog, 'StructTreeRoot');
  const roleMap = cos.dict(root, 'RoleMap');
  const roleOf = (type: string | undefined) => {
    for (let hops = 0; type !== undefined && hops < 8 && !STANDARD_STRUCTURE_TYPES.has(type); hops++) {
      const mapped = nameOf(cos.get(roleMap, type));
      if (mapped === undefined || mapped === type) break;
      type = mapped;
    }
    return type;
  };
  const attribute = (node: PdfDict, owner: string, key: string) =>
    structAttribute(cos, root, node, owner, key);
  /** A TH or TD element: whether it has a Scope and names header cells. */
  const tableCell = (node: PdfDict, role: 'TH' | 'TD'): TableCell => {
    const headers = cos.resolve(attribute(node, 'Table', 'Headers'));
    return {
      role,
      scoped: attribute(node, 'Table', 'Scope') !== undefined,
      headers: Array.isArray(headers) && headers.length > 0,
    };
  };
  let figures = 0;
  let withoutAlt = 0;
  let content = 0;
  let contentWithoutLanguage = 0;
  const languages = new Set<string>();
  const nonstandard = new Set<string>();
  const skips = new Set<string>();
  let lastHeading = 0;
  const tables: TableCell[][] = [];
  const seen = new Set<number>();
  // each node with the language it inherits from its ancestor elements (undefined: none), the table it is
  // in, and the page its marked content is on (the nearest /Pg)
  const stack: {
    raw: PdfValue;
    lang: string | undefined;
    table: TableCell[] | undefined;
    page: number | undefined;
  }[] = [{ raw: root?.get('K') ?? null, lang: undefined, table: undefined, page: undefined }];
  // marked content whose elements give it no language, by page: its own /Lang may (ISO 14289-1 7.2)
  const unlanguaged = new Map<number, number[]>();
  const leaf = (lang: string | undefined, page: number | undefined, mcid: PdfValue | undefined) => {
    content++;
    if (lang !== undefined) return;
    contentWithoutLanguage++;
    if (page === undefined || typeof mcid !== 'number') return;
    const list = unlanguaged.get(page) ?? [];
    list.push(mcid);
    unlanguaged.set(page, list);
  };
  let visited = 0;
  while (stack.length > 0 && visited++ < MAX_STRUCT_NODES) {
    const { raw, lang: inherited, table: inTable, page } = stack.pop()!;
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) continue;
      seen.add(raw.num);
    }
    const node = cos.resolve(raw);
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--)
        stack.push({ raw: node[i]!, lang: inherited, table: inTable, page });
      continue;
    }
    // a marked-content id of the element's page
    if (typeof node === 'number') {
      leaf(inherited, page, node);
      continue;
    }
    if (!isDict(node)) continue;
    // marked-content and object references are leaves
    const type = nameOf(cos.get(node, 'Type'));
    if (type === 'MCR' || type === 'OBJR') {
      const pg = node.get('Pg');
      leaf(
        inherited,
        pg instanceof PdfRef ? pg.num : page,
        type === 'MCR' ? cos.get(node, 'MCID') : undefined,
      );
      continue;
    }
    const own = textString(cos.get(node, 'Lang'))?.trim();
    if (own) languages.add(own);
    const lang = own || inherited;
    const written = nameOf(cos.get(node, 'S'));
    const role = roleOf(written);
    if (written !== undefined && (role === undefined || !STANDARD_STRUCTURE_TYPES.has(role)))
      if (nonstandard.size < MAX_LISTED) nonstandard.add(written);
    // an element's alternate text, replacement text and expansion are text of their own (ISO 14289-1 7.2)
    if (
      lang === undefined &&
      ['Alt', 'ActualText', 'E'].some((key) => textString(cos.get(node, key))?.trim())
    )
      leaf(undefined, undefined, undefined);
    let table = inTable;
    if (role === 'Figure') {
      figures++;
      const alt = textString(cos.get(node, 'Alt')) ?? textString(cos.get(node, 'ActualText'));
      const hasAlt = node.has('Alt') || node.has('ActualText');
      if (!hasAlt || (alt !== undefined && alt.trim() === '' && !cos.ciphertext)) withoutAlt++;
    } else if (role !== undefined && /^H[1-6]$/.test(role)) {
      const level = Number(role.slice(1));
      if (level > lastHeading + 1 && skips.size < MAX_LISTED)
        skips.add(`${lastHeading === 0 ? 'start' : `H${lastHeading}`} to H${level}`);
      lastHeading = level;
    } else if (role === 'Table') {
      table = [];
      tables.push(table);
    } else if (inTable && (role === 'TH' || role === 'TD') && inTable.length < MAX_TABLE_CELLS)
      inTable.push(tableCell(node, role));
    const kids = node.get('K');
    const pg = node.get('Pg');
    if (kids !== undefined)
      stack.push({ raw: kids, lang, table, page: pg instanceof PdfRef ? pg.num : page });
  }
  // without a catalog language, marked content whose text its own /Lang (or an inner one) covers has one
  if (!textString(cos.get(catalog, 'Lang'))?.trim())
    for (const [pageNum, mcids] of [...unlanguaged].slice(0, MAX_LANGUAGE_PAGES)) {
      const page = cos.object(pageNum);
      if (!isDict(page)) continue;
      const language = markedContentLanguage(cos, page);
      contentWithoutLanguage -= mcids.filter((mcid) => language.get(mcid) === true).length;
    }
  return {
    struct_figures: figures,
    struct_figures_without_alt: withoutAlt,
    struct_content: content,
    struct_content_without_language: contentWithoutLanguage,
    struct_languages: [...languages].sort().slice(0, 100),
    struct_types_nonstandard: [...nonstandard].sort(),
    struct_heading_skips: [...skips],
    // a table whose cells name their headers has its structure told that way: its TH need no Scope
    struct_table_headers_without_scope: tables
      .filter((cells) => cells.every((cell) => !cell.headers))
      .reduce((sum, cells) => sum + cells.filter((cell) => cell.role === 'TH' && !cell.scoped).length, 0),
  };
}
