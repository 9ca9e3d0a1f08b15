import type { FixturePairs } from '../../fixtures.js';
import { el, structureFile, td, th, tr, type Element } from '../7.2-text/7.2-tables.js';

const table = (...rows: Element[]) => structureFile([el('Table', rows)]);
/** A header cell with an /ID and no Scope. */
const named = (id: string) => th('', `/ID (${id})`);

export const fixtures: FixturePairs = {
  1: {
    // the same table, its structure told by Headers and IDs
    pass: () => table(tr(named('h1'), named('h2')), tr(td('/Headers [(h1)]'), td('/Headers [(h2)]'))),
    // header cells without Scope, data cells without Headers
    fail: () => table(tr(named('h1'), named('h2')), tr(td(), td())),
  },
  2: {
    pass: () => table(tr(named('h1'), named('h2')), tr(td('/Headers [(h1)]'), td('/Headers [(h1) (h2)]'))),
    // the second data cell names a header no TH has as /ID
    fail: () => table(tr(named('h1'), named('h2')), tr(td('/Headers [(h1)]'), td('/Headers [(h3)]'))),
  },
};

/** Files that keep every rule: the ways ISO 32000-1 14.8.5.7 lets a table's headers be told. */
export const allowances: Record<string, () => Uint8Array> = {
  '7.5-1 every TH has a Scope': () => table(tr(th('/Scope /Column'), th('/Scope /Column')), tr(td(), td())),
  '7.5-1 a table without header cells': () => table(tr(td(), td()), tr(td(), td())),
  '7.5-1 row and column headers with Scope, a corner TH without one': () =>
    table(
      tr(named('corner'), th('/Scope /Column')),
      tr(th('/Scope /Row'), td()),
      tr(th('/Scope /Row'), td()),
    ),
  '7.5-1 the Scope given through a class of the ClassMap': () =>
    structureFile(
      [el('Table', [tr(th('', '/C /ColumnHeader'), th('', '/C /ColumnHeader')), tr(td(), td())])],
      {
        root: '<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey 1 /ClassMap << /ColumnHeader << /O /Table /Scope /Column >> >> >>',
      },
    ),
  '7.5-1 a header with Scope Both over data cells spanning columns': () =>
    table(tr(th('/Scope /Both /ColSpan 2')), tr(td(), td()), tr(td('/ColSpan 2'))),
  '7.5-1 7.5-2 a header without Scope, the data cells told by Headers naming two IDs': () =>
    table(
      tr(named('a'), th('/Scope /Column', '/ID (b)')),
      tr(td('/Headers [(a)]'), td('/Headers [(a) (b)]')),
    ),
};
