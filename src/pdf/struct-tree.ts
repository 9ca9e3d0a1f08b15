import type { CosFile } from './cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef, type PdfValue, textString } from './cos/syntax.js';
import { markedContentLanguage } from './content.js';
import { nestingProblem, tableProblems } from './struct-nesting.js';
import type { UaFinding } from './findings.js';
import { cellsWithoutHeaders, layTable, type TableCell } from './table-layout.js';

/** The standard structure types of ISO 32000-1, 14.8.4, which PDF/UA-1 (7.1) requires every type to map to. */
const STANDARD_TYPES = new Set([
  ...['Document', 'Part', 'Art', 'Sect', 'Div', 'BlockQuote', 'Caption', 'TOC', 'TOCI', 'Index'],
  ...['NonStruct', 'Private', 'P', 'H', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'L', 'LI', 'Lbl', 'LBody'],
  ...['Table', 'TR', 'TH', 'TD', 'THead', 'TBody', 'TFoot', 'Span', 'Quote', 'Note', 'Reference'],
  ...['BibEntry', 'Code', 'Link', 'Annot', 'Ruby', 'RB', 'RT', 'RP', 'Warichu', 'WT', 'WP', 'Figure'],
  ...['Formula', 'Form'],
]);

const MAX_STRUCT_NODES = 200_000;
const MAX_LISTED = 20;
const MAX_TABLE_CHILDREN = 10_000;
/** Pages whose content is read for the language of marked content the structure gives none. */
const MAX_LANGUAGE_PAGES = 50;

export interface StructFacts {
  /**
   * What the tree breaks of ISO 14289-1: standard types remapped (7.1), tables, lists and tables of contents
   * nested as ISO 32000-1 does not allow (7.2), unnumbered headings (7.4.4), formulas without alternate text
   * (7.7), notes without a unique ID (7.9).
   */
  uaFindings: UaFinding[];
  struct_figures: number;
  struct_figures_without_alt: number;
  struct_content: number;
  struct_content_without_language: number;
  struct_languages: string[];
  struct_types_nonstandard: string[];
  struct_heading_skips: string[];
  struct_table_headers_without_scope: number;
}

/** Of one table: its rows of header and data cells. */
interface TableState {
  rows: TableCell[][];
  /** the standard types of its child elements, in order */
  children: string[];
}

/**
 * One walk over the structure tree, in document order and through its RoleMap: figures and their alternate
 * text, the content it refers to and the language each inherits, the types no standard type stands for, how
 * the numbered headings step, and table header cells without a scope.
 */
export function structFacts(cos: CosFile, catalog: PdfDict | undefined): StructFacts {
  const root = cos.dict(catalog, 'StructTreeRoot');
  const roleMap = cos.dict(root, 'RoleMap');
  const classMap = cos.dict(root, 'ClassMap');
  const roleOf = (type: string | undefined) => {
    for (let hops = 0; type !== undefined && hops < 8 && !STANDARD_TYPES.has(type); hops++) {
      const mapped = nameOf(cos.get(roleMap, type));
      if (mapped === undefined || mapped === type) break;
      type = mapped;
    }
    return type;
  };
  /** The attribute `key` of owner `owner` on an element, from its `/A` or its classes (`/C`). */
  const attribute = (node: PdfDict, owner: string, key: string): PdfValue | undefined => {
    const sets: PdfValue[] = [];
    const own = cos.resolve(node.get('A'));
    if (Array.isArray(own)) sets.push(...own);
    else if (own !== undefined) sets.push(own);
    const classes = cos.resolve(node.get('C'));
    for (const name of Array.isArray(classes) ? classes : [classes]) {
      const className = nameOf(cos.resolve(name));
      const defined = className === undefined ? undefined : cos.resolve(cos.get(classMap, className));
      if (Array.isArray(defined)) sets.push(...defined);
      else if (defined !== undefined) sets.push(defined);
    }
    for (const raw of sets) {
      const set = cos.resolve(raw);
      if (isDict(set) && nameOf(cos.get(set, 'O')) === owner && set.has(key)) return cos.get(set, key);
    }
    return undefined;
  };
  /** A TH or TD element as a cell of its table's layout. */
  const tableCell = (node: PdfDict, role: 'TH' | 'TD'): TableCell => {
    const scope = attribute(node, 'Table', 'Scope');
    const headers = cos.resolve(attribute(node, 'Table', 'Headers'));
    const span = (key: string) => {
      const value = cos.resolve(attribute(node, 'Table', key));
      return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? Math.min(value, 1000) : 1;
    };
    return {
      role,
      id: textString(cos.get(node, 'ID')),
      scope: scope === undefined ? undefined : (nameOf(cos.resolve(scope)) ?? ''),
      headers: Array.isArray(headers)
        ? headers.slice(0, MAX_LISTED).map((id) => textString(cos.resolve(id)) ?? '')
        : [],
      rowSpan: span('RowSpan'),
      colSpan: span('ColSpan'),
    };
  };
  let figures = 0;
  let withoutAlt = 0;
  let formulasWithoutAlt = 0;
  let content = 0;
  let contentWithoutLanguage = 0;
  const languages = new Set<string>();
  const nonstandard = new Set<string>();
  const skips = new Set<string>();
  let lastHeading = 0;
  const tables: TableState[] = [];
  const seen = new Set<number>();
  // each node with the language it inherits from its ancestor elements (undefined: none), its table, and
  // the page its marked content is on (the nearest /Pg)
  const stack: {
    raw: PdfValue;
    lang: string | undefined;
    table: TableState | undefined;
    /** the row the node's cells belong to, when the node is a row's child */
    row: TableCell[] | undefined;
    page: number | undefined;
    /** the standard type of the element that holds this node; undefined at the root */
    parent: string | undefined;
    /** which element holds this node (a number of this walk's; 0 for the root) */
    parentId: number;
  }[] = [
    {
      raw: root?.get('K') ?? null,
      lang: undefined,
      table: undefined,
      row: undefined,
      page: undefined,
      parent: undefined,
      parentId: 0,
    },
  ];
  let elements = 0;
  // unnumbered headings (ISO 14289-1 7.4.4): the elements that hold an H, and which heading kinds are used
  const holdingH = new Set<number>();
  const headingKinds = new Set<'H' | 'Hn'>();
  let moreThanOneH = false;
  // notes and their IDs (ISO 14289-1 7.9)
  const noteIds = new Set<string>();
  const noteProblems = new Set<string>();
  const nesting = new Set<string>();
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
    const { raw, lang: inherited, table: inTable, row: inRow, page, parent, parentId } = stack.pop()!;
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) continue;
      seen.add(raw.num);
    }
    const node = cos.resolve(raw);
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--)
        stack.push({ raw: node[i]!, lang: inherited, table: inTable, row: inRow, page, parent, parentId });
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
    if (written !== undefined && (role === undefined || !STANDARD_TYPES.has(role)))
      if (nonstandard.size < MAX_LISTED) nonstandard.add(written);
    // an element's alternate text, replacement text and expansion are text of their own (ISO 14289-1 7.2)
    if (
      lang === undefined &&
      ['Alt', 'ActualText', 'E'].some((key) => textString(cos.get(node, key))?.trim())
    )
      leaf(undefined, undefined, undefined);
    if (role !== undefined && STANDARD_TYPES.has(role)) {
      const problem = nestingProblem(role, parent);
      if (problem && nesting.size < MAX_LISTED) nesting.add(problem);
      if (inTable && parent === 'Table' && inTable.children.length < MAX_TABLE_CHILDREN)
        inTable.children.push(role);
    }
    const id = ++elements;
    if (role === 'H') {
      headingKinds.add('H');
      if (holdingH.has(parentId)) moreThanOneH = true;
      holdingH.add(parentId);
    } else if (role !== undefined && /^H[1-6]$/.test(role)) headingKinds.add('Hn');
    if (role === 'Note') {
      const noteId = textString(cos.get(node, 'ID'));
      if (!noteId) noteProblems.add('a Note without an /ID');
      else if (noteIds.has(noteId)) noteProblems.add(`two Notes share the /ID "${noteId.slice(0, 100)}"`);
      else noteIds.add(noteId);
    }
    let table = inTable;
    // a Formula needs alternate text that says something, or replacement text (7.7); an empty /ActualText
    // is replacement text (the formula stands for nothing to read), an empty /Alt describes nothing
    if (role === 'Formula' && !textString(cos.get(node, 'Alt'))?.trim() && !node.has('ActualText'))
      formulasWithoutAlt++;
    if (role === 'Figure') {
      figures++;
      const alt = textString(cos.get(node, 'Alt')) ?? textString(cos.get(node, 'ActualText'));
      const hasAlt = node.has('Alt') || node.has('ActualText');
      if (!hasAlt || (alt !== undefined && alt.trim() === '' && !cos.encrypted)) withoutAlt++;
    } else if (role !== undefined && /^H[1-6]$/.test(role)) {
      const level = Number(role.slice(1));
      if (level > lastHeading + 1 && skips.size < MAX_LISTED)
        skips.add(`${lastHeading === 0 ? 'start' : `H${lastHeading}`} to H${level}`);
      lastHeading = level;
    } else if (role === 'Table') {
      table = { rows: [], children: [] };
      tables.push(table);
    } else if (inRow && (role === 'TH' || role === 'TD')) {
      if (inRow.length < MAX_TABLE_CHILDREN) inRow.push(tableCell(node, role));
    }
    // the cells of a row are the TH and TD elements it holds itself
    let row: TableCell[] | undefined;
    if (role === 'TR' && table && ['Table', 'THead', 'TBody', 'TFoot'].includes(parent ?? '')) {
      row = [];
      if (table.rows.length < MAX_TABLE_CHILDREN) table.rows.push(row);
    }
    const kids = node.get('K');
    const pg = node.get('Pg');
    if (kids !== undefined)
      stack.push({
        raw: kids,
        lang,
        table,
        row,
        page: pg instanceof PdfRef ? pg.num : page,
        parent: role !== undefined && STANDARD_TYPES.has(role) ? role : parent,
        parentId: id,
      });
  }
  let cellsWithoutHeader = 0;
  for (const { children, rows } of tables) {
    for (const problem of tableProblems(children)) if (nesting.size < MAX_LISTED) nesting.add(problem);
    const layout = layTable(rows);
    if (layout && 'irregular' in layout && nesting.size < MAX_LISTED)
      nesting.add(`a Table laid out irregularly (${layout.irregular})`);
    cellsWithoutHeader += cellsWithoutHeaders(layout);
  }
  // without a catalog language, marked content whose text its own /Lang (or an inner one) covers has one
  if (!textString(cos.get(catalog, 'Lang'))?.trim())
    for (const [pageNum, mcids] of [...unlanguaged].slice(0, MAX_LANGUAGE_PAGES)) {
      const page = cos.object(pageNum);
      if (!isDict(page)) continue;
      const language = markedContentLanguage(cos, page);
      contentWithoutLanguage -= mcids.filter((mcid) => language.get(mcid) === true).length;
    }
  // a standard type mapped to itself (as LibreOffice writes its role maps) is not remapped
  const remapped = [...(roleMap?.keys() ?? [])].filter(
    (type) => STANDARD_TYPES.has(type) && nameOf(cos.get(roleMap, type)) !== type,
  );
  const findings: UaFinding[] = [
    ...remapped.slice(0, 5).map((type) => ({
      clause: '7.1',
      message: `the role map remaps the standard type ${type}`,
    })),
    ...(formulasWithoutAlt > 0
      ? [
          {
            clause: '7.7',
            message: `${formulasWithoutAlt} Formula elements have neither /Alt nor /ActualText`,
          },
        ]
      : []),
    ...(moreThanOneH ? [{ clause: '7.4.4', message: 'headings: an element holds more than one H' }] : []),
    ...(headingKinds.size === 2
      ? [{ clause: '7.4.4', message: 'headings: the document uses both H and numbered headings (H1 to H6)' }]
      : []),
    ...[...nesting].slice(0, 5).map((problem) => ({
      clause: '7.2',
      message: `structure elements nested or laid out as ISO 32000-1 does not allow: ${problem}`,
    })),
    ...[...noteProblems].slice(0, 5).map((problem) => ({ clause: '7.9', message: problem })),
    ...(cellsWithoutHeader > 0
      ? [
          {
            clause: '7.5',
            message: `${cellsWithoutHeader === 1 ? 'a table data cell (TD) has' : `${cellsWithoutHeader} table data cells (TD) have`} no header cell that can be told: neither Headers naming the IDs of header cells (TH) nor a header cell whose Scope reaches them`,
          },
        ]
      : []),
  ];
  return {
    uaFindings: findings,
    struct_figures: figures,
    struct_figures_without_alt: withoutAlt,
    struct_content: content,
    struct_content_without_language: contentWithoutLanguage,
    struct_languages: [...languages].sort().slice(0, 100),
    struct_types_nonstandard: [...nonstandard].sort(),
    struct_heading_skips: [...skips],
    struct_table_headers_without_scope: tables
      .filter((t) => t.rows.every((cells) => cells.every((cell) => cell.headers.length === 0)))
      .reduce(
        (sum, t) =>
          sum + t.rows.flat().filter((cell) => cell.role === 'TH' && cell.scope === undefined).length,
        0,
      ),
  };
}
