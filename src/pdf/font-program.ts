/**
 * PDFium gives a font's embedded program but not its dictionary's /Subtype; the program's first bytes tell
 * the kind apart, with the names pdffonts uses without spaces.
 */
export function fontProgramType(head: Uint8Array): string {
  const ascii = String.fromCharCode(...head.subarray(0, 4));
  if (ascii === 'OTTO') return 'OpenType';
  if (
    ascii === 'true' ||
    ascii === 'ttcf' ||
    (head[0] === 0 && head[1] === 1 && head[2] === 0 && head[3] === 0)
  )
    return 'TrueType';
  if (ascii.startsWith('%!') || (head[0] === 0x80 && head[1] === 0x01)) return 'Type1';
  // a bare CFF table starts with its header: major version 1, minor 0
  if (head[0] === 1 && head[1] === 0) return 'Type1C';
  return 'unknown';
}

/** The 14 fonts every PDF reader has: a document may name them without embedding them (Type 1 by definition). */
const STANDARD_14 = new Set([
  'Courier',
  'Courier-Bold',
  'Courier-BoldOblique',
  'Courier-Oblique',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-BoldOblique',
  'Helvetica-Oblique',
  'Times-Roman',
  'Times-Bold',
  'Times-BoldItalic',
  'Times-Italic',
  'Symbol',
  'ZapfDingbats',
]);

/** One of the 14 fonts every reader has (and the names PDFium gives the stand-ins it draws with). */
export const isStandard14 = (name: string): boolean => STANDARD_14.has(name);

/** A font that is not embedded has no program to read: only a standard-14 name says what it is. */
export function nonEmbeddedFontType(name: string): string {
  return STANDARD_14.has(name) ? 'Type1' : 'unknown';
}
