import type { CosFile } from '../../cos/file.js';
import { nameOf, type PdfValue, textString } from '../../cos/syntax.js';
import type { Builders, Emitter, ModelNode } from '../node.js';
import { elementWhere, type StructElement, type StructTree, structAttribute, structureTree } from './tree.js';

/**
 * Grouping elements that give their kids no structure of their own: their kids stand in their place, as
 * ISO 32000-1 14.8.4.2 says of NonStruct; a Div and a Part are bare groups, read the same way here (as veraPDF
 * reads all three) so that rows or cells grouped in one are still the table's.
 */
const TRANSPARENT: ReadonlySet<string> = new Set(['NonStruct', 'Div', 'Part']);
/** Transparent ancestors passed at most when looking for an element's parent; past them, the parent is unknown. */
const MAX_TRANSPARENT_HOPS = 256;
/** A table whose cells cover more slots than this is not laid out (its cells are not judged). */
const MAX_TABLE_SLOTS = 100_000;
/** Slots laid out at most over the whole file. */
const MAX_FILE_SLOTS = 1_000_000;
/** Slots walked at most per table to find data cells' headers; past it, the rest are not told. */
const MAX_HEADER_WALK = 1_000_000;
/** Header IDs kept per cell. */
const MAX_HEADERS = 100;

const ROW_GROUPS: ReadonlySet<string> = new Set(['THead', 'TBody', 'TFoot']);
const CELLS: ReadonlySet<string> = new Set(['TH', 'TD']);

/** What holds an element, through NonStruct and Div: another element, the tree's root, or unknown. */
export interface TableParent {
  /** The holder's standard type; undefined at the root, past too many groups, or for a type of no standard. */
  standardType: string | undefined;
  /** Said to a person: "Table", "the structure tree root", "MyType (no standard type)". */
  said: string;
  /** Too many NonStruct or Div elements between: the parent is not told. */
  unknown: boolean;
}

/**
 * How a table's cells lay out in rows and columns (ISO 32000-1 14.8.4.3.4, Table 337 RowSpan and ColSpan):
 * its rows are its TR elements (directly or in THead, TBody and TFoot), in order; each cell takes the next
 * slot of its row that no cell above spans into, and covers RowSpan rows by ColSpan columns. The first row
 * holding cells sets the number of columns. Rows holding no cell that no span reaches are left out of the
 * comparisons (they hold nothing).
 */
export interface TableGrid {
  rows: number;
  columns: number;
  /** The first row whose cells reach past the first row's columns: 1-based, and the columns it reaches. */
  widerRow: { row: number; columns: number } | undefined;
  /** The first row with a slot no cell covers, among the first row's columns: 1-based, and the slots covered. */
  narrowerRow: { row: number; columns: number } | undefined;
  /** The first cell whose RowSpan reaches past the last row: where it starts (1-based) and its RowSpan. */
  pastLastRow: { row: number; column: number; rowSpan: number } | undefined;
  /** Cells that cover a slot another cell covers. */
  overlappingCells: number;
  /** TH cells with no Scope attribute. */
  headerCellsWithoutScope: number;
}

/** A Table element, its kids and how its cells lay out. */
export interface TableNode extends ModelNode {
  element: StructElement;
  /** The standard types of its kids, through NonStruct and Div (kids of no standard type left out). */
  kidTypes: string[];
  /** Undefined when it has no cell, or too many slots to lay out. */
  grid: TableGrid | undefined;
}

/** A TR, THead, TBody or TFoot element, wherever it is. */
export interface TablePartNode extends ModelNode {
  element: StructElement;
  standardType: 'TR' | 'THead' | 'TBody' | 'TFoot';
  parent: TableParent;
  /** The standard types of its kids, through NonStruct and Div (kids of no standard type left out). */
  kidTypes: string[];
}

/** A TH or TD element, wherever it is, and where its table lays it out. */
export interface TableCellNode extends ModelNode {
  element: StructElement;
  standardType: 'TH' | 'TD';
  parent: TableParent;
  /** Its Table attributes RowSpan and ColSpan (1 when absent or not a positive integer). */
  rowSpan: number;
  colSpan: number;
  /** Its place in its table's grid (0-based), when its table is laid out. */
  origin: { row: number; column: number } | undefined;
  /** It covers a slot another cell of its table covers. */
  overlaps: boolean;
  /** Its table's grid, when laid out. */
  grid: TableGrid | undefined;
  /** Its Table attribute Headers: the IDs it names (text strings). */
  headers: string[];
  /** Of `headers`, those no TH of its table has as /ID. */
  unknownHeaders: string[];
  /**
   * For a TD of a regularly laid out table with a TH of no Scope: whether a reader finds header cells for it, either through
   * Headers that all name the IDs of the table's TH cells, or through a TH whose Scope reaches it (Column or
   * Both above it in one of its columns, Row or Both left of it in one of its rows, within the nearest block
   * of header cells). Undefined when not told (a TH; a table not laid out, laid out irregularly, or whose TH
   * cells all have a Scope; a table too large to walk).
   */
  headersFound: boolean | undefined;
}

/** Tables of the structure tree and their parts (ISO 32000-1 14.8.4.3.4). */
export interface TableKinds {
  table: TableNode;
  table_part: TablePartNode;
  table_cell: TableCellNode;
}

/** An element's kids as a table reads them: a NonStruct's or Div's kids in its place, at any depth. */
export function significantKids(element: StructElement): StructElement[] {
  const out: StructElement[] = [];
  const stack = [...element.kids].reverse();
  while (stack.length > 0) {
    const kid = stack.pop()!;
    if (kid.standardType !== undefined && TRANSPARENT.has(kid.standardType))
      for (let i = kid.kids.length - 1; i >= 0; i--) stack.push(kid.kids[i]!);
    else out.push(kid);
  }
  return out;
}

/** What holds an element, NonStruct and Div passed. */
export function significantParent(element: StructElement): TableParent {
  let parent = element.parent;
  for (let hops = 0; parent?.standardType !== undefined && TRANSPARENT.has(parent.standardType); hops++) {
    if (hops >= MAX_TRANSPARENT_HOPS) return { standardType: undefined, said: 'unknown', unknown: true };
    parent = parent.parent;
  }
  if (!parent) return { standardType: undefined, said: 'the structure tree root', unknown: false };
  return {
    standardType: parent.standardType,
    said: parent.standardType ?? `${parent.type ?? '(no /S)'} (no standard type)`,
    unknown: false,
  };
}

const kidTypesOf = (element: StructElement): string[] =>
  significantKids(element).flatMap((kid) => (kid.standardType === undefined ? [] : [kid.standardType]));

/** A cell as its table lays it out. */
interface CellFacts {
  element: StructElement;
  role: 'TH' | 'TD';
  rowSpan: number;
  colSpan: number;
  id: string | undefined;
  scope: string | undefined;
  hasScope: boolean;
  headers: string[];
  origin?: { row: number; column: number };
  overlaps?: boolean;
  headersFound?: boolean;
  unknownHeaders?: string[];
  grid?: TableGrid;
}

const textOf = (cos: CosFile, value: PdfValue | undefined): string | undefined => {
  const resolved = cos.resolve(value);
  return nameOf(resolved) ?? textString(resolved);
};

function cellFacts(cos: CosFile, tree: StructTree, element: StructElement): CellFacts {
  const attribute = (key: string) => structAttribute(cos, tree.root, element.dict, 'Table', key);
  const span = (key: string) => {
    const value = cos.resolve(attribute(key));
    return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : 1;
  };
  const scope = attribute('Scope');
  const headers = cos.resolve(attribute('Headers'));
  const headerIds = (Array.isArray(headers) ? headers : headers === undefined ? [] : [headers])
    .slice(0, MAX_HEADERS)
    .flatMap((id) => {
      const text = textString(cos.resolve(id));
      return text === undefined ? [] : [text];
    });
  return {
    element,
    role: element.standardType === 'TH' ? 'TH' : 'TD',
    rowSpan: span('RowSpan'),
    colSpan: span('ColSpan'),
    id: textString(cos.get(element.dict, 'ID')),
    scope: textOf(cos, scope),
    hasScope: scope !== undefined,
    headers: headerIds,
  };
}

/** The rows of a table: its TR kids and those of its THead, TBody and TFoot kids, in order. */
function tableRows(table: StructElement): StructElement[] {
  const rows: StructElement[] = [];
  for (const kid of significantKids(table)) {
    if (kid.standardType === 'TR') rows.push(kid);
    else if (kid.standardType !== undefined && ROW_GROUPS.has(kid.standardType))
      for (const inner of significantKids(kid)) if (inner.standardType === 'TR') rows.push(inner);
  }
  return rows;
}

/**
 * Lays out a table's rows of cells, marking on each cell its origin and overlap; undefined when there is no
 * cell or more slots than `budget` allows.
 */
function layOut(rows: CellFacts[][], budget: { slots: number }): TableGrid | undefined {
  const first = rows.find((row) => row.length > 0);
  if (!first) return undefined;
  const rowCount = rows.length;
  let area = 0;
  for (const [r, row] of rows.entries())
    for (const cell of row) area += Math.min(cell.rowSpan, rowCount - r) * cell.colSpan;
  if (area > MAX_TABLE_SLOTS || area > budget.slots) return undefined;
  budget.slots -= area;

  const columns = first.reduce((sum, cell) => sum + cell.colSpan, 0);
  const slots: (CellFacts | undefined)[][] = rows.map(() => []);
  let pastLastRow: TableGrid['pastLastRow'];
  for (const [r, row] of rows.entries()) {
    let column = 0;
    for (const cell of row) {
      while (slots[r]![column] !== undefined) column++;
      cell.origin = { row: r, column };
      cell.overlaps ??= false;
      if (r + cell.rowSpan > rowCount)
        pastLastRow ??= { row: r + 1, column: column + 1, rowSpan: cell.rowSpan };
      for (let i = 0; i < Math.min(cell.rowSpan, rowCount - r); i++)
        for (let j = 0; j < cell.colSpan; j++) {
          const occupant = slots[r + i]![column + j];
          if (occupant) {
            occupant.overlaps = true;
            cell.overlaps = true;
          } else slots[r + i]![column + j] = cell;
        }
      column += cell.colSpan;
    }
  }

  let widerRow: TableGrid['widerRow'];
  let narrowerRow: TableGrid['narrowerRow'];
  for (const [r, row] of slots.entries()) {
    const covered = row.filter((slot) => slot !== undefined).length;
    if (covered === 0 && rows[r]!.length === 0) continue;
    if (row.length > columns) widerRow ??= { row: r + 1, columns: row.length };
    let inside = 0;
    for (let c = 0; c < columns; c++) if (row[c] !== undefined) inside++;
    if (inside < columns) narrowerRow ??= { row: r + 1, columns: covered };
  }
  const cells = rows.flat();
  // one irregularity is told, the first in veraPDF's order (a row too wide, a span past the last row, an
  // overlap, a row too short): the others follow from it, and a table breaks one rule of the four
  if (widerRow || pastLastRow) for (const cell of cells) cell.overlaps = false;
  if (widerRow) pastLastRow = undefined;
  if (widerRow || pastLastRow || cells.some((cell) => cell.overlaps)) narrowerRow = undefined;
  const grid: TableGrid = {
    rows: rowCount,
    columns,
    widerRow,
    narrowerRow,
    pastLastRow,
    overlappingCells: cells.filter((cell) => cell.overlaps).length,
    headerCellsWithoutScope: cells.filter((cell) => cell.role === 'TH' && !cell.hasScope).length,
  };
  for (const cell of cells) cell.grid = grid;
  const regular = !widerRow && !narrowerRow && !pastLastRow && grid.overlappingCells === 0;
  // only a table with a TH of no Scope leaves its data cells' headers to be found (and costs the walk)
  if (regular && grid.headerCellsWithoutScope > 0) findHeaders(cells, slots);
  return grid;
}

/** Marks on each TD whether a reader finds its header cells (see `TableCellNode.headersFound`). */
function findHeaders(cells: CellFacts[], grid: (CellFacts | undefined)[][]): void {
  const headerIds = new Set(cells.flatMap((cell) => (cell.role === 'TH' && cell.id ? [cell.id] : [])));
  const reaches = (cell: CellFacts, direction: 'Row' | 'Column') =>
    cell.role === 'TH' && (cell.scope === direction || cell.scope === 'Both');
  // walking away from the cell: a header with the scope connects; past a block of headers, a data cell ends it
  let walked = 0;
  const connectedAlong = (slots: Iterable<CellFacts | undefined>, direction: 'Row' | 'Column') => {
    let headerSeen = false;
    for (const slot of slots) {
      walked++;
      if (!slot) continue; // a row that holds nothing
      if (reaches(slot, direction)) return true;
      if (slot.role === 'TH') headerSeen = true;
      else if (headerSeen) return false;
    }
    return false;
  };
  function* above(row: number, column: number) {
    for (let r = row - 1; r >= 0; r--) yield grid[r]![column];
  }
  function* leftOf(row: number, column: number) {
    for (let c = column - 1; c >= 0; c--) yield grid[row]![c];
  }
  for (const cell of cells) {
    if (cell.role !== 'TD' || !cell.origin) continue;
    if (walked > MAX_HEADER_WALK) return;
    cell.unknownHeaders = cell.headers.filter((id) => !headerIds.has(id));
    if (cell.headers.length > 0 && cell.unknownHeaders.length === 0) {
      cell.headersFound = true;
      continue;
    }
    const { row, column } = cell.origin;
    let found = false;
    for (let c = column; c < column + cell.colSpan && !found; c++)
      found = connectedAlong(above(row, c), 'Column');
    for (let r = row; r < row + cell.rowSpan && !found; r++) found = connectedAlong(leftOf(r, column), 'Row');
    cell.headersFound = found;
  }
}

function emitTables(cos: CosFile, out: Emitter<TableKinds>): void {
  const tree = structureTree(cos);
  const wantsParts = out.wants('table_part');
  const wantsCells = out.wants('table_cell');
  const laidOut = new Map<StructElement, CellFacts>();
  const budget = { slots: MAX_FILE_SLOTS };
  if (out.wants('table') || wantsCells)
    for (const element of tree.elements) {
      if (element.standardType !== 'Table') continue;
      const rows = tableRows(element).map((row) =>
        significantKids(row)
          .filter((kid) => kid.standardType !== undefined && CELLS.has(kid.standardType))
          .map((cell) => cellFacts(cos, tree, cell)),
      );
      const grid = layOut(rows, budget);
      if (wantsCells)
        for (const cell of rows.flat()) if (!laidOut.has(cell.element)) laidOut.set(cell.element, cell);
      if (out.wants('table'))
        out.emit('table', { where: elementWhere(element), element, kidTypes: kidTypesOf(element), grid });
    }
  if (!wantsParts && !wantsCells) return;
  for (const element of tree.elements) {
    const type = element.standardType;
    if (type === undefined) continue;
    if (wantsParts && (type === 'TR' || ROW_GROUPS.has(type)))
      out.emit('table_part', {
        where: elementWhere(element),
        element,
        standardType: type as TablePartNode['standardType'],
        parent: significantParent(element),
        kidTypes: kidTypesOf(element),
      });
    else if (wantsCells && CELLS.has(type)) {
      const facts = laidOut.get(element) ?? cellFacts(cos, tree, element);
      out.emit('table_cell', {
        where: elementWhere(element),
        element,
        standardType: facts.role,
        parent: significantParent(element),
        rowSpan: facts.rowSpan,
        colSpan: facts.colSpan,
        origin: facts.origin,
        overlaps: facts.overlaps ?? false,
        grid: facts.grid,
        headers: facts.headers,
        unknownHeaders: facts.unknownHeaders ?? [],
        headersFound: facts.headersFound,
      });
    }
  }
}

export const tableBuilders: Builders<TableKinds> = {
  document: ({ cos }, out) => {
    if (out.wants('table') || out.wants('table_part') || out.wants('table_cell')) emitTables(cos, out);
  },
};
