import type { FixturePairs } from '../../fixtures.js';
import { fontPage, type0Page } from '../../font-programs.js';
import { stream } from '../../pdfa-file.js';
import { toUnicodeStream, type0WithUnicode, uaFontFile } from './ua-fonts.js';

const JAPAN_CID_FONT =
  '/Type /Font /Subtype /CIDFontType2 /BaseFont /Fixture /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> /CIDToGIDMap /Identity /DW 1000 /W [1 [600 700]]';
const TRUETYPE =
  '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 66 /Widths [600 700]';

/** The Type 0 fixture font with a ToUnicode CMap mapping codes 1 and 2 to `a` and `b` (hexadecimal UTF-16). */
const type0Mapped = (a: string, b: string) =>
  uaFontFile(
    type0Page({ encoding: '/Identity-H /ToUnicode 12 0 R', extra: [toUnicodeStream([1, 2], [a, b])] }),
  );

export const fixtures: FixturePairs = {
  // Identity-H over an Adobe-Identity CIDFont says nothing of Unicode: only a ToUnicode CMap can
  1: {
    pass: () => uaFontFile(type0WithUnicode({})),
    fail: () => uaFontFile(type0Page({})),
  },
  2: {
    pass: () => type0Mapped('0041', '0042'),
    fail: () => type0Mapped('0041', 'FEFF'),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // the other means of ISO 32000-1 9.10.2: a standard encoding's glyph names, Differences of Adobe Glyph
  // List names, the Unicode CMap of a registered CJK collection
  '7.21.7-1 a WinAnsiEncoding font without ToUnicode': () => uaFontFile(fontPage({})),
  '7.21.7-1 Differences of Adobe Glyph List names without ToUnicode': () =>
    uaFontFile(
      fontPage({
        font: `${TRUETYPE} /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [65 /A /uni0042] >>`,
      }),
    ),
  '7.21.7-1 an Adobe-Japan1 CIDFont under Identity-H without ToUnicode': () =>
    uaFontFile(type0Page({ cidFont: JAPAN_CID_FONT })),
  // (shown invisibly: a standard font drawn visibly would need embedding, 7.21.4.1)
  '7.21.7-1 a standard font without an encoding': () =>
    uaFontFile({
      resources: '/Font << /F1 8 0 R >>',
      content: 'BT /F1 12 Tf 3 Tr 10 10 Td (AB) Tj ET\n',
      objects: ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
    }),
  // a ToUnicode CMap that maps a code to two characters (a ligature) is a mapping like any other
  '7.21.7-2 a ToUnicode CMap mapping a code to a ligature': () => type0Mapped('00660069', '0042'),
  '7.21.7-1 a ToUnicode CMap as a stream with ranges': () =>
    uaFontFile(
      type0Page({
        encoding: '/Identity-H /ToUnicode 12 0 R',
        extra: [
          stream(
            '',
            '/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0001> <0002> <0041> endbfrange endcmap CMapName currentdict /CMap defineresource pop end end',
          ),
        ],
      }),
    ),
};
