import type { FixturePairs } from '../../fixtures.js';
import { abProgram } from '../../font-programs.js';
import { type Bytes, stream } from '../../pdfa-file.js';
import { annotatedFile, NOTE, widget } from '../../pdfua-annotations.js';
import { type PdfuaEdits, pdfuaFile } from '../../pdfua-file.js';

/** The catalog's PDF/UA entries without /Lang: no language is in force for the whole document. */
const NO_LANG =
  '/MarkInfo << /Marked true >> /ViewerPreferences << /DisplayDocTitle true >> /StructTreeRoot 6 0 R';
/** The Document element with `entries` of its own (`/Lang (en-GB)`). */
const documentWith = (entries: string) =>
  `<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R] ${entries} >>`;
/** The default Figure with `entries` instead of its /Alt. */
const figure = (entries: string) => `<< /Type /StructElem /S /Figure /P 7 0 R /Pg 3 0 R /K 0 ${entries} >>`;
/** A UTF-16 text string that names its language with an escape (ISO 32000-1 7.9.2.2): `lang`, then `text`. */
const escaped = (lang: string, text: string) => {
  const hex = (s: string) => [...s].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
  const code = [...lang].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
  return `<FEFF001B${code}001B${hex(text)}>`;
};
/** An Alt that names its own language, so that the default Figure keeps 7.2-22 without any /Lang. */
const SELF_DESCRIBED_FIGURE = figure(`/Alt ${escaped('en', 'A blue square')}`);

/** An outline of one item (objects 10 and 11) whose title is `title`. */
const outline = (title = '(Chapter 1)'): PdfuaEdits => ({
  catalog: '/Outlines 10 0 R',
  objects: [
    '<< /Type /Outlines /First 11 0 R /Last 11 0 R /Count 1 >>',
    `<< /Title ${title} /Parent 10 0 R /Dest [3 0 R /Fit] >>`,
  ],
});

/**
 * A page showing text with an embedded TrueType font (objects 10 to 12), tagged as marked content 0 of a P
 * element (object 8, with `elementEntries`); `content` wraps the text (default: in the P's sequence).
 */
const textPage = (
  options: { elementEntries?: string; content?: (text: string) => string; objects?: Bytes[] } = {},
): PdfuaEdits => {
  const program = abProgram();
  const text = 'BT /F1 12 Tf 10 10 Td (AB) Tj ET\n';
  return {
    resources: '/Font << /F1 10 0 R >>',
    content: options.content ? options.content(text) : `/P << /MCID 0 >> BDC\n${text}EMC\n`,
    figure: `<< /Type /StructElem /S /P /P 7 0 R /Pg 3 0 R /K 0 ${options.elementEntries ?? ''} >>`,
    objects: [
      '<< /Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 66 /Widths [600 700] /Encoding /WinAnsiEncoding /FontDescriptor 11 0 R >>',
      '<< /Type /FontDescriptor /FontName /Fixture /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 12 0 R >>',
      stream(`/Length1 ${program.length}`, program),
      ...(options.objects ?? []),
    ],
  };
};

/** The page's square inside a Span sequence with `properties`, in the Figure's marked content. */
const spanContent = (properties: string, figureProperties = '') =>
  `/Figure << /MCID 0 ${figureProperties} >> BDC\n/Span << ${properties} >> BDC\n0 0 1 rg\n10 10 100 100 re\nf\nEMC\nEMC\n`;

const FIELDS = '/AcroForm << /Fields [10 0 R] >>';
const NAMED = widget('/TU (Your name)');

/**
 * A note (object 10) held by an Annot element (12) inside a Sect (11) that has `/Lang`, through both an object
 * reference and the note's /StructParent.
 */
const noteInSection = (annotation: string, sectEntries: string): Uint8Array =>
  pdfuaFile({
    uaCatalog: NO_LANG,
    ...OWN_TITLE,
    figure: figure('/Alt (A blue square) /Lang (en)'),
    page: '/Annots [10 0 R] /Tabs /S',
    root: '<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey 2 >>',
    document: '<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R 11 0 R] >>',
    parentTree: '<< /Nums [0 [8 0 R] 1 12 0 R] >>',
    catalog: annotation.includes('Widget') ? FIELDS : '',
    objects: [
      `<< /Type /Annot ${annotation} /Rect [100 600 200 650] /P 3 0 R /StructParent 1 >>`,
      `<< /Type /StructElem /S /Sect /P 7 0 R /K [12 0 R] ${sectEntries} >>`,
      `<< /Type /StructElem /S /${annotation.includes('Widget') ? 'Form' : 'Annot'} /P 11 0 R /Pg 3 0 R /K << /Type /OBJR /Obj 10 0 R /Pg 3 0 R >> >>`,
    ],
  });

export const fixtures: FixturePairs = {
  2: {
    pass: () => pdfuaFile(outline()),
    fail: () => pdfuaFile({ ...outline(), uaCatalog: NO_LANG, figure: SELF_DESCRIBED_FIGURE }),
  },
  21: {
    pass: () => pdfuaFile({ figure: figure('/Alt (A blue square) /ActualText (Blue)') }),
    fail: () => pdfuaFile({ uaCatalog: NO_LANG, figure: figure('/ActualText (Blue)') }),
  },
  22: {
    pass: () => pdfuaFile(),
    fail: () => pdfuaFile({ uaCatalog: NO_LANG }),
  },
  23: {
    pass: () => pdfuaFile({ figure: figure('/Alt (A blue square) /E (Blue)') }),
    fail: () =>
      pdfuaFile({
        uaCatalog: NO_LANG,
        figure: figure(`/Alt ${escaped('en', 'A blue square')} /E (Blue)`),
      }),
  },
  24: {
    pass: () => annotatedFile([{ entries: NOTE, tag: 'Annot' }]),
    fail: () =>
      annotatedFile([{ entries: NOTE, tag: 'Annot' }], {
        uaCatalog: NO_LANG,
        figure: SELF_DESCRIBED_FIGURE,
      }),
  },
  25: {
    pass: () => annotatedFile([{ entries: NAMED, tag: 'Form' }], { catalog: FIELDS }),
    fail: () =>
      annotatedFile([{ entries: NAMED, tag: 'Form' }], {
        catalog: FIELDS,
        uaCatalog: NO_LANG,
        figure: SELF_DESCRIBED_FIGURE,
      }),
  },
  29: {
    pass: () => pdfuaFile(),
    fail: () => pdfuaFile({ uaCatalog: NO_LANG, catalog: '/Lang (en_US)' }),
  },
  30: {
    pass: () => pdfuaFile({ content: spanContent('/ActualText (Blue)') }),
    fail: () =>
      pdfuaFile({
        uaCatalog: NO_LANG,
        figure: SELF_DESCRIBED_FIGURE,
        content: spanContent('/ActualText (Blue)'),
      }),
  },
  31: {
    pass: () => pdfuaFile({ content: spanContent('/Alt (A blue square)') }),
    fail: () =>
      pdfuaFile({
        uaCatalog: NO_LANG,
        figure: SELF_DESCRIBED_FIGURE,
        content: spanContent('/Alt (A blue square)'),
      }),
  },
  32: {
    pass: () => pdfuaFile({ content: spanContent('/E (Blue)') }),
    fail: () =>
      pdfuaFile({
        uaCatalog: NO_LANG,
        figure: SELF_DESCRIBED_FIGURE,
        content: spanContent('/E (Blue)'),
      }),
  },
  33: {
    pass: () => pdfuaFile(),
    fail: () => pdfuaFile({ uaCatalog: NO_LANG, figure: SELF_DESCRIBED_FIGURE }),
  },
  34: {
    pass: () => pdfuaFile(textPage()),
    fail: () => pdfuaFile({ ...textPage(), uaCatalog: NO_LANG }),
  },
};

/** Allowances with no catalog /Lang: every text's language is determined another way. */
const noLang = (edits: PdfuaEdits) => pdfuaFile({ uaCatalog: NO_LANG, ...edits });
const ENGLISH_TITLE =
  '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Fixture</rdf:li><rdf:li xml:lang="en-US">Fixture</rdf:li></rdf:Alt></dc:title>';
/** The XMP of an allowance without a catalog /Lang: a title in a language of its own. */
const OWN_TITLE: PdfuaEdits = { title: null, xmp: ENGLISH_TITLE };

export const allowances: Record<string, () => Uint8Array> = {
  '7.2-2 an outline title that names its language with an escape': () =>
    noLang({ ...outline(escaped('en', 'Chapter 1')), figure: SELF_DESCRIBED_FIGURE, ...OWN_TITLE }),
  '7.2-21 /ActualText of an element with a /Lang of its own': () =>
    noLang({ figure: figure('/ActualText (Blue) /Lang (en-GB)'), ...OWN_TITLE }),
  '7.2-21 /ActualText of an element whose ancestor has the /Lang': () =>
    noLang({ figure: figure('/ActualText (Blue)'), document: documentWith('/Lang (en)'), ...OWN_TITLE }),
  '7.2-22 /Alt of an element with a /Lang of its own': () =>
    noLang({ figure: figure('/Alt (A blue square) /Lang (en-US)'), ...OWN_TITLE }),
  '7.2-22 /Alt of an element whose ancestor has the /Lang': () =>
    noLang({ document: documentWith('/Lang (en-US)'), ...OWN_TITLE }),
  '7.2-22 /Alt that names its language with an escape': () =>
    noLang({ figure: SELF_DESCRIBED_FIGURE, ...OWN_TITLE }),
  '7.2-22 /Alt of an element whose /Lang is empty (the language declared unknown)': () =>
    noLang({ figure: figure('/Alt (A blue square) /Lang ()'), ...OWN_TITLE }),
  '7.2-22 an empty /Alt (nothing to speak) with no language': () =>
    noLang({ figure: figure('/Alt () /ActualText ()'), ...OWN_TITLE }),
  '7.2-23 /E of an element whose ancestor has the /Lang': () =>
    noLang({
      figure: figure('/Alt (A blue square) /E (Blue)'),
      document: documentWith('/Lang (en)'),
      ...OWN_TITLE,
    }),
  '7.2-24 /Contents of a note whose Annot element has the /Lang': () =>
    annotatedFile([{ entries: NOTE, tag: 'Annot', elementEntries: '/Lang (en-US)' }], {
      uaCatalog: NO_LANG,
      figure: SELF_DESCRIBED_FIGURE,
      ...OWN_TITLE,
    }),
  '7.2-24 /Contents of a note held through its /StructParent alone, its element with the /Lang': () =>
    annotatedFile([{ entries: NOTE, tag: 'Annot', via: 'StructParent', elementEntries: '/Lang (en)' }], {
      uaCatalog: NO_LANG,
      figure: SELF_DESCRIBED_FIGURE,
      ...OWN_TITLE,
    }),
  '7.2-24 /Contents of a note whose element inherits the /Lang of a Sect': () =>
    noteInSection('/Subtype /Text /F 4 /Contents (A note on the square)', '/Lang (en-US)'),
  '7.2-24 /Contents that names its language with an escape': () =>
    annotatedFile([{ entries: `/Subtype /Text /F 4 /Contents ${escaped('en', 'A note')}`, tag: 'Annot' }], {
      uaCatalog: NO_LANG,
      figure: SELF_DESCRIBED_FIGURE,
      ...OWN_TITLE,
    }),
  '7.2-25 /TU of a field whose Form element has the /Lang': () =>
    annotatedFile([{ entries: NAMED, tag: 'Form', elementEntries: '/Lang (en-US)' }], {
      catalog: FIELDS,
      uaCatalog: NO_LANG,
      figure: SELF_DESCRIBED_FIGURE,
      ...OWN_TITLE,
    }),
  '7.2-25 /TU of a field whose widget element inherits the /Lang of a Sect': () =>
    noteInSection(`${NAMED}`, '/Lang (de-DE)'),
  '7.2-25 /TU of a parent field, its widget in a Form element with the /Lang': () =>
    annotatedFile(
      [{ entries: '/Subtype /Widget /F 4 /Parent 12 0 R', tag: 'Form', elementEntries: '/Lang (en)' }],
      {
        catalog: '/AcroForm << /Fields [12 0 R] >>',
        uaCatalog: NO_LANG,
        figure: SELF_DESCRIBED_FIGURE,
        objects: ['<< /FT /Tx /T (name) /TU (Your name) /Kids [10 0 R] >>'],
        ...OWN_TITLE,
      },
    ),
  '7.2-29 language tags of RFC 3066 and BCP 47 forms': () =>
    pdfuaFile({
      uaCatalog: NO_LANG,
      catalog: '/Lang (zh-Hant-TW)',
      document: documentWith('/Lang (de-CH-1996)'),
      figure: figure('/Alt (A blue square) /Lang (x-private)'),
      content: spanContent('/Lang (sgn-BE-FR)', '/Lang (EN-us)'),
    }),
  '7.2-29 grandfathered and extended tags': () =>
    pdfuaFile({
      uaCatalog: NO_LANG,
      catalog: '/Lang (i-klingon)',
      document: documentWith('/Lang (en-US-x-twain)'),
      figure: figure('/Alt (A blue square) /Lang (es-419)'),
    }),
  '7.2-29 an empty catalog /Lang (the language declared unknown)': () =>
    pdfuaFile({ uaCatalog: NO_LANG, catalog: '/Lang ()' }),
  '7.2-29 a /Lang written as a UTF-16 text string': () =>
    pdfuaFile({ uaCatalog: NO_LANG, catalog: '/Lang <FEFF0065006E002D00550053>' }),
  "7.2-30 a Span's /ActualText with the Span's own /Lang": () =>
    noLang({
      figure: SELF_DESCRIBED_FIGURE,
      content: spanContent('/ActualText (Blue) /Lang (en)'),
      ...OWN_TITLE,
    }),
  "7.2-30 a Span's /ActualText inside a sequence with the /Lang": () =>
    noLang({
      figure: SELF_DESCRIBED_FIGURE,
      content: spanContent('/ActualText (Blue)', '/Lang (en)'),
      ...OWN_TITLE,
    }),
  "7.2-31 a Span's /Alt inside content whose element has the /Lang": () =>
    noLang({
      figure: figure('/Alt (A blue square) /Lang (en)'),
      content: spanContent('/Alt (A blue square)'),
      ...OWN_TITLE,
    }),
  '7.2-32 a Span with an empty /E (nothing to speak)': () =>
    noLang({ figure: SELF_DESCRIBED_FIGURE, content: spanContent('/E ()'), ...OWN_TITLE }),
  '7.2-33 an XMP title with an item in a language of its own besides x-default': () =>
    noLang({ figure: SELF_DESCRIBED_FIGURE, ...OWN_TITLE }),
  '7.2-34 text in a sequence with its own /Lang': () =>
    noLang({
      ...textPage({ content: (t) => `/P << /MCID 0 /Lang (en-US) >> BDC\n${t}EMC\n` }),
      ...OWN_TITLE,
    }),
  '7.2-34 text inside a sequence with the /Lang around its tagged one': () =>
    noLang({
      ...textPage({ content: (t) => `/Span << /Lang (fr) >> BDC\n/P << /MCID 0 >> BDC\n${t}EMC\nEMC\n` }),
      ...OWN_TITLE,
    }),
  '7.2-34 text whose element has the /Lang': () =>
    noLang({ ...textPage({ elementEntries: '/Lang (en)' }), ...OWN_TITLE }),
  '7.2-34 text whose element inherits the /Lang of the Document': () =>
    noLang({ ...textPage(), document: documentWith('/Lang (en)'), ...OWN_TITLE }),
  '7.2-34 text in a form XObject drawn inside tagged content with the /Lang': () => {
    const page = textPage({
      elementEntries: '/Lang (en)',
      content: () => '/P << /MCID 0 >> BDC\n/Fm1 Do\nEMC\n',
    });
    return noLang({
      ...page,
      resources: '/Font << /F1 10 0 R >> /XObject << /Fm1 13 0 R >>',
      objects: [
        ...(page.objects ?? []),
        stream(
          '/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources << /Font << /F1 10 0 R >> >>',
          'BT /F1 12 Tf 10 10 Td (AB) Tj ET\n',
        ),
      ],
      ...OWN_TITLE,
    });
  },
};
