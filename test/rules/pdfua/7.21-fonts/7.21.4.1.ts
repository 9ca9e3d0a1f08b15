import type { FixturePairs } from '../../fixtures.js';
import { fontPage } from '../../font-programs.js';
import { uaFontFile } from './ua-fonts.js';

const FONT =
  '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 67 /Widths [600 700 500] /Encoding /WinAnsiEncoding';

/** Helvetica, one of the standard fonts, not embedded, as font F2 (object 13 once renumbered). */
const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

/** The fixture page with `text` shown after its own, inside its paragraph, with F2 the unembedded Helvetica. */
const withHelvetica = (text: string) => {
  const page = fontPage({ extra: [HELVETICA] });
  return uaFontFile({
    ...page,
    resources: '/Font << /F1 8 0 R /F2 11 0 R >>',
    content: `${page.content as string}${text}`,
  });
};

export const fixtures: FixturePairs = {
  1: {
    pass: () => uaFontFile(fontPage({})),
    // the same font without its program
    fail: () => uaFontFile(fontPage({ program: undefined })),
  },
  // the text shows C, which the program has no glyph for
  2: {
    pass: () => uaFontFile(fontPage({ font: FONT })),
    fail: () => uaFontFile(fontPage({ font: FONT, text: '(ABC) Tj' })),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // invisible text (rendering mode 3) is not rendered: its font need not be embedded, even where it is the
  // text an /ActualText span gives (a technique for text drawn as outlines or as an image)
  '7.21.4.1-1 invisible text in an unembedded font, in an ActualText span': () =>
    withHelvetica('/Span << /ActualText (AB) >> BDC\nBT /F2 12 Tf 3 Tr 10 40 Td (AB) Tj ET\nEMC\n'),
  '7.21.4.1-1 invisible text in an unembedded font': () =>
    withHelvetica('BT /F2 12 Tf 3 Tr 10 40 Td (Hidden words) Tj ET\n'),
  // a font not embedded that no text is shown with is not used for rendering
  '7.21.4.1-1 an unembedded font in the resources, not shown': () => withHelvetica(''),
  // text ActualText replaces for reading is still drawn: with an embedded font, it keeps the rule
  '7.21.4.1-1 visible text in an embedded font, in an ActualText span': () =>
    uaFontFile(
      fontPage({ text: 'ET\n/Span << /ActualText (AB) >> BDC\nBT /F1 12 Tf 10 40 Td (AB) Tj ET\nEMC\nBT' }),
    ),
  // a glyph missing from the program is not rendered in mode 3
  '7.21.4.1-2 a glyph the program lacks, shown invisibly': () =>
    uaFontFile(fontPage({ font: FONT, text: '(AB) Tj 3 Tr (C) Tj' })),
};
