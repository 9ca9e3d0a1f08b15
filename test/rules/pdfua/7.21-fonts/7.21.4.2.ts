import type { FixturePairs } from '../../fixtures.js';
import { cffProgram, fontPage } from '../../font-programs.js';
import { stream } from '../../pdfa-file.js';
import { type0WithUnicode, uaFontFile } from './ua-fonts.js';

const TYPE1_SUBSET =
  '/Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Fixture /FirstChar 65 /LastChar 66 /Widths [600 700] /Encoding /WinAnsiEncoding';
const descriptor = (charSet: string) =>
  `/Type /FontDescriptor /FontName /ABCDEF+Fixture /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80${charSet}`;

/** A Type 1 subset (a bare CFF of A and B) whose descriptor has `charSet` entries. */
const type1Subset = (charSet: string) =>
  uaFontFile(
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
const cidSubset = (bits: number | undefined) =>
  uaFontFile(
    type0WithUnicode({
      cidFont: CID_SUBSET,
      descriptor: bits === undefined ? CID_DESCRIPTOR : `${CID_DESCRIPTOR} /CIDSet 12 0 R`,
      extra: bits === undefined ? [] : [stream('', new Uint8Array([bits]))],
    }),
  );

export const fixtures: FixturePairs = {
  // the program holds A and B
  1: { pass: () => type1Subset(' /CharSet (/A/B)'), fail: () => type1Subset(' /CharSet (/A)') },
  // the program holds CIDs 1 and 2; the CIDSet lists 0 and 1
  2: { pass: () => cidSubset(0xe0), fail: () => cidSubset(0xc0) },
};

export const allowances: Record<string, () => Uint8Array> = {
  // the CharSet and the CIDSet are optional in a subset
  '7.21.4.2-1 a Type 1 subset without a CharSet': () => type1Subset(''),
  '7.21.4.2-2 a CIDFont subset without a CIDSet': () => cidSubset(undefined),
};
