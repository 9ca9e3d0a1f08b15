import type { FixturePairs } from '../../../fixtures.js';
import { cffProgram, fontPage, type0Page } from '../../../font-programs.js';
import { pdfaFile, stream } from '../../../pdfa-file.js';

const FONT =
  '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 67 /Widths [600 700 500] /Encoding /WinAnsiEncoding';

/** Shared with ISO 19005-2 6.2.11.4.1-2: the text shows C, which the program has no glyph for. */
export const glyphPresencePair = {
  pass: (part: 1 | 2 | 3) => pdfaFile(part, fontPage({ font: FONT })),
  fail: (part: 1 | 2 | 3) => pdfaFile(part, fontPage({ font: FONT, text: '(ABC) Tj' })),
};

const TYPE1_SUBSET =
  '/Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Fixture /FirstChar 65 /LastChar 66 /Widths [600 700] /Encoding /WinAnsiEncoding';
const descriptor = (charSet: string) =>
  `/Type /FontDescriptor /FontName /ABCDEF+Fixture /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80${charSet}`;

/** A Type 1 subset (a bare CFF of A and B) whose descriptor has `charSet` entries. */
export const type1Subset = (part: 1 | 2 | 3, charSet: string) =>
  pdfaFile(
    part,
    fontPage({
      font: TYPE1_SUBSET,
      descriptor: descriptor(charSet),
      program: cffProgram([
        { name: 'A', width: 600 },
        { name: 'B', width: 700 },
      ]),
      programEntries: '/FontFile3 /Subtype /Type1C',
    }),
  );

const CID_DESCRIPTOR =
  '/Type /FontDescriptor /FontName /ABCDEF+Fixture /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80';
const CID_SUBSET =
  '/Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Fixture /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /CIDToGIDMap /Identity /DW 1000 /W [1 [600 700]]';

/** A TrueType CIDFont subset of glyphs 1 and 2, its CIDSet `bits` (first byte: CIDs 0 to 7), or none. */
export const cidSubset = (part: 1 | 2 | 3, bits: number | undefined) =>
  pdfaFile(
    part,
    type0Page({
      cidFont: CID_SUBSET,
      descriptor: bits === undefined ? CID_DESCRIPTOR : `${CID_DESCRIPTOR} /CIDSet 12 0 R`,
      extra: bits === undefined ? [] : [stream('', new Uint8Array([bits]))],
    }),
  );

export const fixtures: FixturePairs = {
  1: glyphPresencePair,
  2: { pass: (part) => type1Subset(part, ' /CharSet (/A/B)'), fail: (part) => type1Subset(part, '') },
  3: { pass: (part) => cidSubset(part, 0xe0), fail: (part) => cidSubset(part, undefined) },
};
