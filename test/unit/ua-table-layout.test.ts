import { describe, expect, it } from 'vitest';
import { PDFUA_RULES } from '../../src/rules/pdfua/index.js';
import { judgeBytes } from '../rules/fixtures.js';
import { el, structureFile, td, tr } from '../rules/pdfua/7.2-text/7.2-tables.js';

/**
 * A table laid out irregularly breaks one of the four layout rules (7.2-15, 7.2-41, 7.2-42, 7.2-43), the first
 * in veraPDF's order: the others follow from it, and a rule more is a fault the file does not have.
 */
const layoutRules = (...rows: ReturnType<typeof tr>[]) =>
  judgeBytes(structureFile([el('Table', rows)]), PDFUA_RULES)
    .map((f) => `${f.clause}-${f.test}`)
    .filter((id) => ['7.2-15', '7.2-41', '7.2-42', '7.2-43'].includes(id));

describe('a table laid out irregularly', () => {
  it('a cell spanning too many columns is a row too wide, not also an overlap or a row too short', () => {
    expect(layoutRules(tr(td(), td()), tr(td('/ColSpan 3'), td()))).toEqual(['7.2-42']);
    // spanning three columns, it also lies over the cell that spans down into its row: still the one fault
    expect(layoutRules(tr(td(), td('/RowSpan 2')), tr(td('/ColSpan 3')))).toEqual(['7.2-42']);
  });

  it('a cell spanning past the last row is that alone', () => {
    expect(layoutRules(tr(td('/RowSpan 3'), td()), tr(td()))).toEqual(['7.2-41']);
  });

  it('cells that overlap, in rows as wide as the first, are an overlap alone', () => {
    // the second row's cell spans both columns, one of which the first row's second cell spans into
    expect(layoutRules(tr(td(), td('/RowSpan 2')), tr(td('/ColSpan 2')))).toEqual(['7.2-15']);
  });

  it('a regular table breaks none', () => {
    expect(layoutRules(tr(td(), td()), tr(td('/ColSpan 2')), tr(td(), td()))).toEqual([]);
  });
});
