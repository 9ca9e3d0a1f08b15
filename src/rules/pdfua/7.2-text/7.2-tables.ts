import type { TableCellNode, TableNode, TablePartNode } from '../../../pdf/model/structure/tables.js';
import { rule, type Reason, type Rule } from '../../rule.js';

/**
 * ISO 14289-1, 7.2 Text: tables, tagged as ISO 32000-1 14.8.4.3.4 says (Table holds rows or row groups and a
 * caption; THead, TBody and TFoot hold rows; rows hold cells), and laid out regularly (Table 337 RowSpan and
 * ColSpan). Kids are read through NonStruct and Div, which group without structure of their own, and kids of
 * no standard type are left to 7.1.
 */
const SPEC = ['ISO 14289-1'] as const;
const NESTING = 'structure_nesting';
const REGULARITY = 'table_regularity';

const count = (types: readonly string[], type: string) => types.filter((t) => t === type).length;
const columnsSaid = (n: number) => `${n} column${n === 1 ? '' : 's'}`;
const listed = (types: readonly string[]) => [...new Set(types)].join(', ');

/** A kid-types rule: the types `allowed` in an element of type `holder`. */
const onlyKids = (test: number, holder: TablePartNode['standardType'], allowed: readonly string[]) =>
  rule({
    specifications: SPEC,
    clause: '7.2',
    test,
    object: 'table_part',
    check: NESTING,
    says: `A ${holder} element holds only ${allowed.join(' and ')} elements`,
    fault: (node: TablePartNode) => {
      if (node.standardType !== holder) return undefined;
      const others = node.kidTypes.filter((type) => !allowed.includes(type));
      return others.length > 0 ? `a ${holder} holding ${listed(others)}` : undefined;
    },
    fix: `tag the content of a ${holder} as ${allowed.join(' or ')} elements (move other elements into them or out of the ${holder})`,
  });

/** A parent rule: an element of type `type` held by one of `parents`. */
const heldBy = (
  test: number,
  object: 'table_part' | 'table_cell',
  type: string,
  parents: readonly string[],
) =>
  rule({
    specifications: SPEC,
    clause: '7.2',
    test,
    object,
    check: NESTING,
    says: `A ${type} element is held by a ${parents.join(', ')} element`,
    fault: (node: TablePartNode | TableCellNode) => {
      if (node.standardType !== type || node.parent.unknown) return undefined;
      const parent = node.parent.standardType;
      return parent !== undefined && parents.includes(parent)
        ? undefined
        : `a ${type} held by ${node.parent.said}`;
    },
    fix: `put each ${type} element inside a ${parents.join(', ')} element, as ISO 32000-1 14.8.4.3.4 nests tables`,
  });

/** A rule on a Table's kids. */
const tableKids = (test: number, says: string, fault: (kids: string[]) => string | undefined, fix: string) =>
  rule({
    specifications: SPEC,
    clause: '7.2',
    test,
    object: 'table',
    check: NESTING,
    says,
    fault: (node: TableNode) => fault(node.kidTypes),
    fix,
  });

/** A rule on a Table's layout. */
const tableGrid = (
  test: number,
  says: string,
  fault: (grid: NonNullable<TableNode['grid']>) => string | undefined,
  fix: string,
) =>
  rule({
    specifications: SPEC,
    clause: '7.2',
    test,
    object: 'table',
    check: REGULARITY,
    says,
    fault: (node: TableNode) => (node.grid ? fault(node.grid) : undefined),
    fix,
  });

const TABLE_KIDS = ['TR', 'THead', 'TBody', 'TFoot', 'Caption'];

export const rules: Rule[] = [
  tableKids(
    3,
    'A Table element holds only TR, THead, TBody, TFoot and Caption elements',
    (kids) => {
      const others = kids.filter((type) => !TABLE_KIDS.includes(type));
      return others.length > 0 ? `a Table holding ${listed(others)}` : undefined;
    },
    "tag a table's content as rows (TR), row groups (THead, TBody, TFoot) and at most one Caption; move other elements into its cells or out of the table",
  ),
  heldBy(4, 'table_part', 'TR', ['Table', 'THead', 'TBody', 'TFoot']),
  heldBy(5, 'table_part', 'THead', ['Table']),
  heldBy(6, 'table_part', 'TBody', ['Table']),
  heldBy(7, 'table_part', 'TFoot', ['Table']),
  heldBy(8, 'table_cell', 'TH', ['TR']),
  heldBy(9, 'table_cell', 'TD', ['TR']),
  onlyKids(10, 'TR', ['TH', 'TD']),
  tableKids(
    11,
    'A Table element holds at most one THead',
    (kids) =>
      count(kids, 'THead') > 1 ? `a Table holding ${count(kids, 'THead')} THead elements` : undefined,
    "put all of a table's header rows in one THead",
  ),
  tableKids(
    12,
    'A Table element holds at most one TFoot',
    (kids) =>
      count(kids, 'TFoot') > 1 ? `a Table holding ${count(kids, 'TFoot')} TFoot elements` : undefined,
    "put all of a table's footer rows in one TFoot",
  ),
  tableKids(
    13,
    'A Table element that holds a TFoot holds one or more TBody',
    (kids) =>
      count(kids, 'TFoot') > 0 && count(kids, 'TBody') === 0
        ? 'a Table with a TFoot and no TBody'
        : undefined,
    "put the table's body rows in a TBody beside its TFoot",
  ),
  tableKids(
    14,
    'A Table element that holds a THead holds one or more TBody',
    (kids) =>
      count(kids, 'THead') > 0 && count(kids, 'TBody') === 0
        ? 'a Table with a THead and no TBody'
        : undefined,
    "put the table's body rows in a TBody beside its THead",
  ),
  rule({
    specifications: SPEC,
    clause: '7.2',
    test: 15,
    object: 'table_cell',
    check: REGULARITY,
    says: 'A table cell covers no slot of the table that another cell covers',
    fault: (node: TableCellNode) =>
      node.overlaps && node.origin
        ? `a ${node.standardType} at row ${node.origin.row + 1}, column ${node.origin.column + 1} overlapping another cell`
        : undefined,
    fix: 'correct the RowSpan and ColSpan attributes of the cells so that no two cells cover the same row and column',
  }),
  tableKids(
    16,
    "A Table element's Caption is its first or its last kid",
    (kids) =>
      kids.slice(1, -1).includes('Caption')
        ? `a Caption as kid ${kids.indexOf('Caption', 1) + 1} of the Table's ${kids.length}`
        : undefined,
    "move the table's Caption before its first row or after its last",
  ),
  onlyKids(36, 'THead', ['TR']),
  onlyKids(37, 'TBody', ['TR']),
  onlyKids(38, 'TFoot', ['TR']),
  tableKids(
    39,
    'A Table element holds at most one Caption',
    (kids) =>
      count(kids, 'Caption') > 1 ? `a Table holding ${count(kids, 'Caption')} Caption elements` : undefined,
    'give a table one Caption (merge the others into it, or move them out of the table)',
  ),
  tableGrid(
    41,
    "A table's columns span the same number of rows (taking RowSpan into account)",
    (grid) =>
      grid.pastLastRow
        ? `a cell of row ${grid.pastLastRow.row}, column ${grid.pastLastRow.column} spanning ${grid.pastLastRow.rowSpan} rows, past the table's last row (${grid.rows})`
        : undefined,
    "correct the cell's RowSpan so that it ends at the table's last row at most, or add the rows it spans",
  ),
  tableGrid(
    42,
    "A table's rows span the same number of columns (taking ColSpan into account): none more than the first",
    (grid) =>
      grid.widerRow
        ? `row ${grid.widerRow.row} spanning ${columnsSaid(grid.widerRow.columns)}, the first row ${grid.columns}`
        : undefined,
    "give every row of the table as many columns as the first, counting each cell's ColSpan and the cells spanning into it from rows above (RowSpan)",
  ),
  tableGrid(
    43,
    "A table's rows span the same number of columns (taking ColSpan into account): none fewer than the first",
    (grid) =>
      grid.narrowerRow
        ? `row ${grid.narrowerRow.row} spanning ${columnsSaid(grid.narrowerRow.columns)}, the first row ${grid.columns}`
        : undefined,
    'give every row of the table as many columns as the first: add the missing cells (empty TD elements are allowed) or correct the ColSpan and RowSpan of the cells',
  ),
];

export const reasons: Reason[] = [];
