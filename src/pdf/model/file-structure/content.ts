import { nameOf, type PdfValue } from '../../cos/syntax.js';
import type { Emitter, PageSource } from '../node.js';
import type { FileStructureKinds } from './nodes.js';
import {
  appearanceOperations,
  appearanceTokens,
  type Operation,
  pageOperations,
  pageTokens,
  resourceOperations,
  resourceTokens,
} from '../operations.js';

const BOXES = ['MediaBox', 'CropBox', 'BleedBox', 'TrimBox', 'ArtBox'];
/** Inherited from the page tree (ISO 32000-1 7.7.3.4); the other boxes are the page's own. */
const INHERITED_BOXES = new Set(['MediaBox', 'CropBox']);

/**
 * A page's share of the file's syntax: the tokens of its content streams, of its annotations' appearance
 * streams, of the tiling patterns and Type 3 glyphs of its resources, and of the forms they draw; their `q`
 * operators and nesting, their inline images' filters; and the page's boundaries.
 */
export function contentSyntax(source: PageSource, out: Emitter<FileStructureKinds>): void {
  if (['number', 'string', 'name', 'array', 'dictionary'].some((k) => out.wants(k as 'number')))
    contentTokens(source, out);
  if (out.wants('graphics_state_save') || out.wants('inline_image_filter')) {
    operators(pageOperations(source), out);
    operators(appearanceOperations(source), out);
    operators(resourceOperations(source), out);
  }
  if (out.wants('page_box')) pageBoxes(source, out);
}

function operators(operations: readonly Operation[], out: Emitter<FileStructureKinds>): void {
  for (const operation of operations) {
    if (operation.op === 'q')
      out.emit('graphics_state_save', { where: streamWhere(operation.where), nesting: operation.depth + 1 });
    else if (operation.op === 'BI' && operation.inlineImage) {
      const where = streamWhere(operation.where);
      const filter = operation.inlineImage.get('F') ?? operation.inlineImage.get('Filter');
      const names = Array.isArray(filter) ? filter : filter === undefined ? [] : [filter];
      for (const name of names.map((n: PdfValue) => nameOf(n)))
        if (name !== undefined)
          out.emit('inline_image_filter', { where: `an inline image on ${where}`, name });
    }
  }
}

const streamWhere = (where: string) => (where.includes(',') ? where : `${where}, content stream`);

function contentTokens(source: PageSource, out: Emitter<FileStructureKinds>): void {
  const wants = {
    number: out.wants('number'),
    string: out.wants('string'),
    name: out.wants('name'),
    array: out.wants('array'),
    dictionary: out.wants('dictionary'),
  };
  for (const tokens of [...pageTokens(source), ...appearanceTokens(source), ...resourceTokens(source)]) {
    const where = streamWhere(tokens.where);
    if (wants.number) {
      // a stream's numbers by their extremes (the least and greatest of each kind, the real nearest to 0),
      // and its other tokens each distinct one once: what a content stream holds, not how often
      const { integers, reals } = tokens;
      const values = (list: number[]) => [...new Set(list)];
      if (integers.count > 0)
        for (const value of values([integers.min, integers.max]))
          out.emit('number', { where, value, real: false });
      if (reals.count > 0)
        for (const value of values([reals.min, reals.max, reals.nearestZero]))
          out.emit('number', { where, value, real: true });
    }
    if (wants.string) {
      for (const bytes of tokens.strings)
        out.emit('string', { where, bytes, hex: false, hexDigits: 0, hexOnlyDigits: true });
      for (const { digits, onlyDigits } of tokens.hexStrings)
        out.emit('string', {
          where,
          bytes: Math.ceil(digits / 2),
          hex: true,
          hexDigits: digits,
          hexOnlyDigits: onlyDigits,
        });
    }
    if (wants.name) for (const bytes of tokens.names) out.emit('name', { where, bytes });
    if (wants.array) for (const items of tokens.arrays) out.emit('array', { where, items });
    if (wants.dictionary)
      for (const entries of tokens.dictionaries) out.emit('dictionary', { where, entries });
  }
}

function pageBoxes({ cos, page, pageNumber }: PageSource, out: Emitter<FileStructureKinds>): void {
  for (const box of BOXES) {
    const value = cos.resolve(INHERITED_BOXES.has(box) ? cos.inherited(page, box) : page.get(box));
    if (!Array.isArray(value) || value.length !== 4) continue;
    const [x0, y0, x1, y1] = value.map((v) => cos.resolve(v));
    if (![x0, y0, x1, y1].every((v) => typeof v === 'number')) continue;
    out.emit('page_box', {
      where: `page ${pageNumber}, ${box}`,
      box,
      width: Math.abs((x1 as number) - (x0 as number)),
      height: Math.abs((y1 as number) - (y0 as number)),
    });
  }
}
