import type { TableCellNode } from '../../../pdf/model/structure/tables.js';
import { rule, type Reason, type Rule } from '../../rule.js';

/**
 * ISO 14289-1, 7.5 Tables: when a table's structure is not determinable through Headers and IDs, its header
 * cells (TH) have a Scope. Judged on each data cell (TD) of a regularly laid out table that has a TH without a
 * Scope: its headers are determinable when its Headers all name the IDs of the table's TH cells, or when a TH
 * whose Scope reaches it heads one of its columns or rows (ISO 32000-1 14.8.5.7, Table 337). A table with no
 * TH, or whose TH cells all have a Scope, keeps the rule.
 */
const SPEC = ['ISO 14289-1'] as const;

const undetermined = (node: TableCellNode) =>
  node.standardType === 'TD' && node.headersFound === false && (node.grid?.headerCellsWithoutScope ?? 0) > 0;

const cellAt = (node: TableCellNode) =>
  node.origin ? `the TD at row ${node.origin.row + 1}, column ${node.origin.column + 1}` : 'a TD';

export const rules: Rule[] = [
  rule({
    specifications: SPEC,
    clause: '7.5',
    test: 1,
    object: 'table_cell',
    check: 'table_headers',
    says: "A table's TH cells have a Scope attribute, unless its structure is determinable through Headers and IDs",
    fault: (node: TableCellNode) =>
      undetermined(node) && node.unknownHeaders.length === 0
        ? `${cellAt(node)} has no Headers, and no TH with a Scope heads its row or column (${node.grid!.headerCellsWithoutScope} TH without Scope)`
        : undefined,
    fix: 'give each TH a Scope attribute (Row, Column or Both), or give each TD a Headers attribute naming the IDs of its TH cells',
  }),
  rule({
    specifications: SPEC,
    clause: '7.5',
    test: 2,
    object: 'table_cell',
    check: 'table_headers',
    says: "A table's TD cells name in Headers only IDs of the table's TH cells, unless its TH cells have a Scope attribute",
    fault: (node: TableCellNode) =>
      undetermined(node) && node.unknownHeaders.length > 0
        ? `${cellAt(node)} names in Headers ${node.unknownHeaders
            .slice(0, 5)
            .map((id) => `"${id.slice(0, 40)}"`)
            .join(', ')}, which no TH of its table has as /ID`
        : undefined,
    fix: "correct the TD's Headers so that they name the /ID of TH cells of the same table, or give each TH a Scope attribute",
  }),
];

export const reasons: Reason[] = [];
