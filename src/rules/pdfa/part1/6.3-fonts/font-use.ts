import type { Reason, Rule } from '../../../rule.js';

/** How the fonts rules read a font's use on a page: shown by text at all, and shown visibly (not in mode 3). */
export const drawn = (node: { drawnModes: number[] }): boolean => node.drawnModes.length > 0;

/** Shown in a text rendering mode other than 3 (ISO 32000-1 9.3.6: mode 3 neither fills nor strokes). */
export const rendered = (node: { drawnModes: number[] }): boolean =>
  node.drawnModes.some((mode) => mode !== 3);

export const SIMPLE_FONTS = new Set(['Type1', 'MMType1', 'TrueType', 'Type3']);

export const FONT_SUBTYPES = new Set([
  'Type1',
  'MMType1',
  'TrueType',
  'Type3',
  'Type0',
  'CIDFontType0',
  'CIDFontType2',
]);

/** A few names of a list, for a message. */
export const some = (names: readonly (string | number)[]): string =>
  names.slice(0, 5).join(', ') + (names.length > 5 ? ', ...' : '');

/** The names of ISO 32000-1 9.7.5.2 Table 118: the predefined CMaps. */
export const PREDEFINED_CMAPS = new Set(
  `GB-EUC-H GB-EUC-V GBpc-EUC-H GBpc-EUC-V GBK-EUC-H GBK-EUC-V GBKp-EUC-H GBKp-EUC-V GBK2K-H GBK2K-V UniGB-UCS2-H
UniGB-UCS2-V UniGB-UTF16-H UniGB-UTF16-V B5pc-H B5pc-V HKscs-B5-H HKscs-B5-V ETen-B5-H ETen-B5-V ETenms-B5-H
ETenms-B5-V CNS-EUC-H CNS-EUC-V UniCNS-UCS2-H UniCNS-UCS2-V UniCNS-UTF16-H UniCNS-UTF16-V 83pv-RKSJ-H 90ms-RKSJ-H
90ms-RKSJ-V 90msp-RKSJ-H 90msp-RKSJ-V 90pv-RKSJ-H Add-RKSJ-H Add-RKSJ-V EUC-H EUC-V Ext-RKSJ-H Ext-RKSJ-V H V
UniJIS-UCS2-H UniJIS-UCS2-V UniJIS-UCS2-HW-H UniJIS-UCS2-HW-V UniJIS-UTF16-H UniJIS-UTF16-V KSC-EUC-H KSC-EUC-V
KSCms-UHC-H KSCms-UHC-V KSCms-UHC-HW-H KSCms-UHC-HW-V KSCpc-EUC-H UniKS-UCS2-H UniKS-UCS2-V UniKS-UTF16-H
UniKS-UTF16-V Identity-H Identity-V`.split(/\s+/),
);

/** The glyphs a subset's CharSet leaves out of its program's, and the ones it lists that the program lacks. */
export function charSetMismatch(
  charSet: readonly string[],
  program: readonly string[],
): { unlisted: string[]; absent: string[] } {
  const listed = new Set(charSet);
  const held = new Set(program);
  return {
    unlisted: program.filter((glyph) => glyph !== '.notdef' && !listed.has(glyph)),
    absent: [...listed].filter((glyph) => glyph !== '.notdef' && !held.has(glyph)),
  };
}

// helpers only: the fixture and inventory tests read every file of these folders as a clause file
export const rules: Rule[] = [];
export const reasons: Reason[] = [];
