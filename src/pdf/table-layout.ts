/** A header or data cell of a tagged table, as its structure element says (ISO 32000-1 14.8.5.7). */
export interface TableCell {
  role: 'TH' | 'TD';
  /** the element's `/ID`, which data cells may name as their header */
  id: string | undefined;
  /** the `Table` attribute `Scope` (`Row`, `Column`, `Both`), if the cell has one; '' when it is not a name */
  scope: string | undefined;
  /** the `Table` attribute `Headers`: the IDs of the header cells the cell names */
  headers: string[];
  rowSpan: number;
  colSpan: number;
}

/** Beyond this many slots a table is not laid out (its cells are not judged). */
const MAX_SLOTS = 100_000;

/** A table laid out in slots: each cell where it starts, or what keeps the table from being laid out. */
export type TableLayout =
  { grid: TableCell[][]; origins: Map<TableCell, { row: number; column: number }> } | { irregular: string };

/**
 * Lays out a table's rows of cells (rows without cells left out) as ISO 32000-1 14.8.5.7 spans them: the
 * first row sets the number of columns; every row is to span as many, no cell may overlap another or span past
 * the last row. A table too large to lay out within `MAX_SLOTS` comes back with no grid and no fault.
 */
export function layTable(written: readonly (readonly TableCell[])[]): TableLayout | undefined {
  const rows = written.filter((row) => row.length > 0);
  if (rows.length === 0) return undefined;
  const columns = rows[0]!.reduce((sum, cell) => sum + cell.colSpan, 0);
  if (columns * rows.length > MAX_SLOTS) return undefined;
  const slots: (TableCell | undefined)[][] = rows.map(() =>
    Array.from<TableCell | undefined>({ length: columns }),
  );
  const origins = new Map<TableCell, { row: number; column: number }>();
  for (const [r, row] of rows.entries()) {
    let column = 0;
    for (const cell of row) {
      while (column < columns && slots[r]![column] !== undefined) column++;
      if (column + cell.colSpan > columns)
        return { irregular: `row ${r + 1} spans more columns than the first row's ${columns}` };
      if (r + cell.rowSpan > rows.length)
        return { irregular: `a cell of row ${r + 1} spans rows past the table's last` };
      for (let i = 0; i < cell.rowSpan; i++)
        for (let j = 0; j < cell.colSpan; j++) {
          if (slots[r + i]![column + j] !== undefined)
            return { irregular: `two cells overlap in row ${r + i + 1}, column ${column + j + 1}` };
          slots[r + i]![column + j] = cell;
        }
      origins.set(cell, { row: r, column });
      column += cell.colSpan;
    }
  }
  const short = slots.findIndex((row) => row.includes(undefined));
  if (short >= 0)
    return { irregular: `row ${short + 1} spans fewer columns than the first row's ${columns}` };
  return { grid: slots as TableCell[][], origins };
}

/**
 * The data cells of a table whose header cells cannot be told (ISO 14289-1 7.5: unless the table's structure
 * is determinable through `Headers` and IDs, header cells have a `Scope`), given its layout.
 *
 * A table only counts when it is laid out regularly (every slot covered by one cell) and some header cell has
 * no `Scope`: then a data cell needs either `Headers` that all name header cells' IDs, or a header cell with
 * the scope to reach it, above it in one of its columns (`Column` or `Both`) or left of it in one of its rows
 * (`Row` or `Both`), with no data cell between that header and the cells' nearest header block. A table laid
 * out irregularly is the business of its own rule (7.2), not this one.
 */
export function cellsWithoutHeaders(layout: TableLayout | undefined): number {
  if (!layout || 'irregular' in layout) return 0;
  const { grid, origins } = layout;
  const cells = [...origins.keys()];
  if (cells.every((cell) => cell.role !== 'TH' || cell.scope !== undefined)) return 0;
  const headerIds = new Set(cells.flatMap((cell) => (cell.role === 'TH' && cell.id ? [cell.id] : [])));
  const reaches = (cell: TableCell | undefined, direction: 'Row' | 'Column') =>
    cell?.role === 'TH' && (cell.scope === direction || cell.scope === 'Both');
  // walking away from the cell: a header with the scope connects; past a block of headers, a data cell ends it
  const connectedAlong = (slots: (TableCell | undefined)[], direction: 'Row' | 'Column') => {
    let headerSeen = false;
    for (const slot of slots) {
      if (reaches(slot, direction)) return true;
      if (slot?.role === 'TH') headerSeen = true;
      else if (headerSeen) return false;
    }
    return false;
  };
  let without = 0;
  for (const [cell, { row, column }] of origins) {
    if (cell.role !== 'TD') continue;
    if (cell.headers.length > 0 && cell.headers.every((id) => headerIds.has(id))) continue;
    let connected = false;
    for (let c = column; c < column + cell.colSpan && !connected; c++)
      connected = connectedAlong(
        grid
          .slice(0, row)
          .map((above) => above[c])
          .reverse(),
        'Column',
      );
    for (let r = row; r < row + cell.rowSpan && !connected; r++)
      connected = connectedAlong(grid[r]!.slice(0, column).reverse(), 'Row');
    if (!connected) without++;
  }
  return without;
}
