import type { FixturePairs } from '../../fixtures.js';
import { pdfuaFile, uaRef, type PdfuaEdits } from '../../pdfua-file.js';

/** A structure element to write: its type, its kids, and entries added to its dictionary. */
export interface Element {
  type: string;
  kids: Element[];
  entries: string;
}

export const el = (type: string, kids: Element[] = [], entries = ''): Element => ({ type, kids, entries });
/** A table cell with Table attributes (`/Scope /Column /RowSpan 2`), as written inside the attribute object. */
export const cell = (type: 'TH' | 'TD', attributes = '', entries = ''): Element =>
  el(type, [], `${attributes ? `/A << /O /Table ${attributes} >>` : ''}${entries ? ` ${entries}` : ''}`);
export const th = (attributes = '/Scope /Column', entries = ''): Element => cell('TH', attributes, entries);
export const td = (attributes = '', entries = ''): Element => cell('TD', attributes, entries);
export const tr = (...cells: Element[]): Element => el('TR', cells);

/**
 * The default PDF/UA file with `elements` added to its Document element after the Figure, as objects 10 on
 * (each with its /P); `edits` may change anything but the Document and the extra objects.
 */
export function structureFile(elements: Element[], edits: Omit<PdfuaEdits, 'document' | 'objects'> = {}) {
  const objects: string[] = [];
  const place = (element: Element, parent: string): string => {
    const index = objects.length;
    objects.push('');
    const ref = uaRef(index);
    const kids = element.kids.map((kid) => place(kid, ref));
    objects[index] =
      `<< /Type /StructElem /S /${element.type} /P ${parent}` +
      `${kids.length > 0 ? ` /K [${kids.join(' ')}]` : ''}${element.entries ? ` ${element.entries}` : ''} >>`;
    return ref;
  };
  const refs = elements.map((element) => place(element, '7 0 R'));
  return pdfuaFile({
    ...edits,
    document: `<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R ${refs.join(' ')}] >>`,
    objects,
  });
}

/** A regular table: a header row of column headers and a row of data. */
const headerRow = () => tr(th(), th());
const dataRow = () => tr(td(), td());
const table = (...kids: Element[]) => structureFile([el('Table', kids)]);
const grouped = () => [el('THead', [headerRow()]), el('TBody', [dataRow()])];

export const fixtures: FixturePairs = {
  3: {
    pass: () => table(el('Caption'), headerRow(), dataRow()),
    fail: () => table(headerRow(), dataRow(), el('P')),
  },
  4: {
    pass: () => table(headerRow(), dataRow()),
    // a row outside any table (its cells are in a row, as they should be)
    fail: () => structureFile([tr(td(), td())]),
  },
  5: {
    pass: () => table(...grouped()),
    fail: () => structureFile([el('THead', [headerRow()]), el('Table', [el('TBody', [dataRow()])])]),
  },
  6: {
    pass: () => table(...grouped()),
    fail: () => structureFile([el('TBody', [dataRow()])]),
  },
  7: {
    pass: () => table(...grouped(), el('TFoot', [dataRow()])),
    fail: () => structureFile([el('Table', grouped()), el('TFoot', [dataRow()])]),
  },
  8: {
    pass: () => table(headerRow(), dataRow()),
    fail: () => structureFile([el('P', [th()])]),
  },
  9: {
    pass: () => table(headerRow(), dataRow()),
    fail: () => structureFile([td()]),
  },
  10: {
    pass: () => table(headerRow(), dataRow()),
    fail: () => table(headerRow(), el('TR', [td(), el('P'), td()])),
  },
  11: {
    pass: () => table(...grouped()),
    fail: () => table(el('THead', [headerRow()]), el('THead', [headerRow()]), el('TBody', [dataRow()])),
  },
  12: {
    pass: () => table(...grouped(), el('TFoot', [dataRow()])),
    fail: () => table(...grouped(), el('TFoot', [dataRow()]), el('TFoot', [dataRow()])),
  },
  13: {
    pass: () => table(el('TBody', [headerRow(), dataRow()]), el('TFoot', [dataRow()])),
    fail: () => table(headerRow(), dataRow(), el('TFoot', [dataRow()])),
  },
  14: {
    pass: () => table(...grouped()),
    fail: () => table(el('THead', [headerRow()]), dataRow()),
  },
  15: {
    // the first row's second cell spans two rows; the second row's only cell spans both columns
    pass: () => table(tr(td(), td('/RowSpan 2')), tr(td())),
    fail: () => table(tr(td(), td('/RowSpan 2')), tr(td('/ColSpan 2'))),
  },
  16: {
    pass: () => table(headerRow(), dataRow(), el('Caption')),
    fail: () => table(headerRow(), el('Caption'), dataRow()),
  },
  36: {
    pass: () => table(...grouped()),
    fail: () => table(el('THead', [headerRow(), el('P')]), el('TBody', [dataRow()])),
  },
  37: {
    pass: () => table(...grouped()),
    fail: () => table(el('THead', [headerRow()]), el('TBody', [dataRow(), el('P')])),
  },
  38: {
    pass: () => table(...grouped(), el('TFoot', [dataRow()])),
    fail: () => table(...grouped(), el('TFoot', [el('P'), dataRow()])),
  },
  39: {
    pass: () => table(el('Caption'), headerRow(), dataRow()),
    fail: () => table(el('Caption'), headerRow(), dataRow(), el('Caption')),
  },
  41: {
    pass: () => table(tr(td('/RowSpan 2'), td()), tr(td())),
    // the first cell spans three rows of a table of two
    fail: () => table(tr(td('/RowSpan 3'), td()), tr(td())),
  },
  42: {
    pass: () => table(tr(td('/ColSpan 2'), td()), tr(td(), td(), td())),
    fail: () => table(tr(td(), td()), tr(td(), td(), td())),
  },
  43: {
    pass: () => table(tr(td(), td(), td()), tr(td(), td('/ColSpan 2'))),
    fail: () => table(tr(td(), td(), td()), tr(td(), td())),
  },
};

/** Files that keep every rule: what ISO 32000-1 14.8.4.3.4 and Table 337 allow a table. */
export const allowances: Record<string, () => Uint8Array> = {
  '7.2-41 7.2-42 7.2-43 spans that make the rows regular': () =>
    table(
      tr(th('/Scope /Column /ColSpan 2'), th('/Scope /Column /RowSpan 2')),
      tr(th('/Scope /Column'), th('/Scope /Column')),
      tr(td('/RowSpan 2'), td(), td()),
      tr(td('/ColSpan 2')),
    ),
  '7.2-41 7.2-43 a row that cells of the row above span entirely': () =>
    table(tr(td('/RowSpan 2'), td('/RowSpan 2')), el('TR'), tr(td(), td())),
  '7.2-43 an empty row no cell reaches': () => table(tr(td(), td()), el('TR'), tr(td(), td())),
  '7.2-3 7.2-4 7.2-10 rows and cells grouped in NonStruct and Div': () =>
    table(el('NonStruct', [headerRow()]), el('Div', [el('TR', [el('Div', [td(), td()])])])),
  // Part is a grouping element too, looked through as NonStruct and Div are (as veraPDF reads it)
  '7.2-3 7.2-4 rows grouped in a Part': () => table(el('Part', [headerRow(), el('TR', [td(), td()])])),
  '7.2-3 7.2-4 7.2-9 role-mapped table types': () =>
    structureFile(
      [el('Grid', [el('Line', [el('Cell'), el('Cell')]), el('Line', [el('Cell'), el('Cell')])])],
      {
        root: '<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey 1 /RoleMap << /Grid /Table /Line /TR /Cell /TD >> >>',
      },
    ),
  '7.2-9 7.2-41 a table inside a cell of another': () =>
    table(headerRow(), tr(el('TD', [el('Table', [tr(td(), td()), tr(td('/ColSpan 2'))])]), td())),
  '7.2-13 7.2-14 7.2-16 THead, TBody and TFoot with a last Caption': () =>
    table(...grouped(), el('TFoot', [dataRow()]), el('Caption')),
  '7.2-16 7.2-39 a Caption that is the only kid besides the rows, first': () =>
    table(el('Caption'), el('TBody', [headerRow(), dataRow()])),
};
