/**
 * Regenerates test/fixtures/pdfs/profiles/: small PDFs with known answers for every profile check. Ghostscript
 * (Debian `ghostscript`) makes the PDF/A-2b and PDF/X-3 files, LibreOffice (`libreoffice-writer-nogui`) the
 * tagged documents, pdf-lib the rest. The generated files are committed: `npm test` needs none of these tools.
 *
 *   node --import tsx scripts/make-profile-fixtures.mts
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFRef,
  PDFString,
  PDFHexString,
  rgb,
  StandardFonts,
} from 'pdf-lib';
import { PNG } from 'pngjs';
import fontkit from '@pdf-lib/fontkit';

const OUT = path.resolve(import.meta.dirname, '../test/fixtures/pdfs/profiles');
const GS_LIB = readdirSync('/usr/share/ghostscript')
  .map((v) => path.join('/usr/share/ghostscript', v))
  .find((dir) => /^\d/.test(path.basename(dir)));
const ICC = `${GS_LIB}/iccprofiles`;
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const work = mkdtempSync(path.join(tmpdir(), 'fixtures-'));
mkdirSync(OUT, { recursive: true });

/** A PNG of `width` x `height` px: a gradient, so that it is not one flat colour. */
function png(width: number, height: number): Uint8Array {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      image.data[at] = (x * 255) / width;
      image.data[at + 1] = (y * 255) / height;
      image.data[at + 2] = 128;
      image.data[at + 3] = 255;
    }
  return PNG.sync.write(image);
}

const MM = 72 / 25.4;

async function save(name: string, doc: PDFDocument) {
  writeFileSync(path.join(OUT, name), await doc.save({ useObjectStreams: false }));
  console.log(name);
}

/** PostScript drawing text and one RGB image of `px` px square placed 1 inch wide (so `px` ppi). */
function postscript(px: number): string {
  return `%!PS
<< /PageSize [${Math.round(210 * MM)} ${Math.round(297 * MM)}] >> setpagedevice
/Helvetica findfont 20 scalefont setfont
72 760 moveto (Preflight fixture, ${px} ppi image) show
/row ${px * 3} string def
0 1 ${px - 1} { /x exch def row x 3 mul x 255 mul ${px} idiv put row x 3 mul 1 add 64 put row x 3 mul 2 add 200 put } for
gsave 72 500 translate 72 72 scale
${px} ${px} 8 [${px} 0 0 -${px} 0 ${px}] { row } false 3 colorimage
grestore
showpage
`;
}

function ghostscript(name: string, args: string[], definitions: string, px: number): string {
  const source = path.join(work, `${name}.ps`);
  const defs = path.join(work, `${name}-def.ps`);
  writeFileSync(source, postscript(px));
  writeFileSync(defs, definitions);
  const out = path.join(work, name);
  execFileSync('gs', [
    '-q',
    '-dBATCH',
    '-dNOPAUSE',
    '-dNOSAFER',
    '-sDEVICE=pdfwrite',
    ...args,
    `-sOutputFile=${out}`,
    defs,
    source,
  ]);
  return out;
}

/** PDF/A-2b by Ghostscript: XMP with pdfaid, an sRGB output intent, fonts embedded. */
function pdfaDefinitions(): string {
  return `%!
/ICCProfile (${ICC}/default_rgb.icc) def
[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark
[{icc_PDFA} << /N 3 >> /PUT pdfmark
[{icc_PDFA} ICCProfile (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark
[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA}
  /OutputConditionIdentifier (sRGB) >> /PUT pdfmark
[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark
[ /Title (Archive fixture) /DOCINFO pdfmark
`;
}

/** PDF/X-3 by Ghostscript: CMYK throughout, a CMYK output intent. */
function pdfxDefinitions(): string {
  return `%!
[ /GTS_PDFXVersion (PDF/X-3:2002) /Title (Print fixture) /Trapped /False /DOCINFO pdfmark
/ICCProfile (${ICC}/default_cmyk.icc) def
[/_objdef {icc_PDFX} /type /stream /OBJ pdfmark
[{icc_PDFX} << /N 4 >> /PUT pdfmark
[{icc_PDFX} ICCProfile (r) file /PUT pdfmark
[/_objdef {OutputIntent_PDFX} /type /dict /OBJ pdfmark
[{OutputIntent_PDFX} << /Type /OutputIntent /S /GTS_PDFX /DestOutputProfile {icc_PDFX}
  /OutputConditionIdentifier (FOGRA39) /RegistryName (http://www.color.org) >> /PUT pdfmark
[{Catalog} << /OutputIntents [ {OutputIntent_PDFX} ] >> /PUT pdfmark
`;
}

/** Sets a page's TrimBox and BleedBox (`bleedMm` beyond the trim) and adds a spot colour to its resources. */
async function printBoxes(file: string, bleedMm: number, spot: string | undefined): Promise<PDFDocument> {
  const doc = await PDFDocument.load(readFileSync(file), { updateMetadata: false });
  for (const page of doc.getPages()) {
    const { width, height } = page.getMediaBox();
    const trim = 10 * MM;
    page.setTrimBox(trim, trim, width - 2 * trim, height - 2 * trim);
    const bleed = trim - bleedMm * MM;
    page.setBleedBox(bleed, bleed, width - 2 * bleed, height - 2 * bleed);
    if (spot) {
      const tint = doc.context.obj({
        FunctionType: 2,
        Domain: [0, 1],
        C0: [0, 0, 0, 0],
        C1: [1, 0.5, 0, 0],
        N: 1,
      });
      const separation = doc.context.obj([
        PDFName.of('Separation'),
        PDFName.of(spot),
        PDFName.of('DeviceCMYK'),
        tint,
      ]);
      const resources = page.node.Resources()!;
      resources.set(PDFName.of('ColorSpace'), doc.context.obj({ CS0: separation }));
      page.pushOperators(
        PDFOperator.of('q' as never),
        PDFOperator.of('cs' as never, [PDFName.of('CS0')]),
        PDFOperator.of('scn' as never, [PDFNumber.of(1)]),
        PDFOperator.of('re' as never, [
          PDFNumber.of(72),
          PDFNumber.of(200),
          PDFNumber.of(100),
          PDFNumber.of(50),
        ]),
        PDFOperator.of('f' as never),
        PDFOperator.of('Q' as never),
      );
    }
  }
  return doc;
}

async function printFixtures() {
  // passes pdf-print: CMYK PDF/X-3, a 320 ppi image, fonts embedded, 5 mm of bleed, a spot colour (info)
  const good = ghostscript(
    'print-good',
    ['-dPDFX', '-sColorConversionStrategy=CMYK'],
    pdfxDefinitions(),
    320,
  );
  await save('print-pdfx3-cmyk-320ppi.pdf', await printBoxes(good, 5, 'PANTONE 021 C'));
  // fails pdf-print: a 100 ppi image (error), a 200 ppi one (warning), RGB, Helvetica not embedded, no
  // TrimBox, transparency
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Not ready for print', { x: 72, y: 760, size: 20, font: helvetica });
  page.drawImage(await doc.embedPng(png(100, 100)), { x: 72, y: 600, width: 72, height: 72 });
  page.drawImage(await doc.embedPng(png(200, 200)), { x: 200, y: 600, width: 72, height: 72 });
  page.drawRectangle({ x: 72, y: 400, width: 200, height: 100, color: rgb(1, 0, 0), opacity: 0.5 });
  await save('print-rgb-lowres-unembedded.pdf', doc);
  // bleed too small: 1 mm beyond the trim
  await save('print-bleed-1mm.pdf', await printBoxes(good, 1, undefined));
}

async function archiveFixtures() {
  const pdfa = ghostscript(
    'archive-good',
    ['-dPDFA=2', '-dPDFACompatibilityPolicy=1', '-sColorConversionStrategy=RGB'],
    pdfaDefinitions(),
    150,
  );
  writeFileSync(path.join(OUT, 'archive-pdfa2b-ghostscript.pdf'), readFileSync(pdfa));
  console.log('archive-pdfa2b-ghostscript.pdf');
  // PDF/A-1b with no transparency: passes the check that only PDF/A-1 files get
  const pdfa1 = ghostscript(
    'archive-good-1b',
    ['-dPDFA=1', '-dPDFACompatibilityPolicy=1', '-sColorConversionStrategy=RGB'],
    pdfaDefinitions(),
    150,
  );
  writeFileSync(path.join(OUT, 'archive-pdfa1b-ghostscript.pdf'), readFileSync(pdfa1));
  console.log('archive-pdfa1b-ghostscript.pdf');

  // fails pdf-archive: JavaScript, an attachment, a font not embedded, no XMP, no output intent
  const bad = await PDFDocument.create();
  const page = bad.addPage([595, 842]);
  page.drawText('Not for an archive', {
    x: 72,
    y: 760,
    size: 20,
    font: await bad.embedFont(StandardFonts.Helvetica),
  });
  bad.addJavaScript('hello', 'app.alert("hello");');
  await bad.attach(new TextEncoder().encode('a,b\n1,2\n'), 'data.csv', { mimeType: 'text/csv' });
  await save('archive-javascript-attachment.pdf', bad);

  // claims PDF/A-1b (XMP, output intent, embedded font) but draws with transparency
  const part1 = await PDFDocument.create();
  part1.registerFontkit((await import('@pdf-lib/fontkit')).default);
  const font = await part1.embedFont(readFileSync(FONT), { subset: true });
  const p = part1.addPage([595, 842]);
  p.drawText('Claims PDF/A-1b', { x: 72, y: 760, size: 20, font });
  p.drawRectangle({ x: 72, y: 400, width: 200, height: 100, color: rgb(0, 0, 1), opacity: 0.4 });
  const xmp = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>1</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  const metadata = part1.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
  part1.catalog.set(PDFName.of('Metadata'), part1.context.register(metadata));
  const icc = part1.context.stream(readFileSync(`${ICC}/default_rgb.icc`), { N: 3 });
  const intent = part1.context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB'),
    DestOutputProfile: part1.context.register(icc),
  });
  part1.catalog.set(PDFName.of('OutputIntents'), part1.context.obj([intent]));
  await save('archive-pdfa1-claim-transparency.pdf', part1);
}

/** A marked-content sequence `tag` with `mcid` around `draw`. */
function marked(page: ReturnType<PDFDocument['addPage']>, tag: string, mcid: number, draw: () => void) {
  page.pushOperators(
    PDFOperator.of('BDC' as never, [PDFName.of(tag), page.doc.context.obj({ MCID: mcid }) as never]),
  );
  draw();
  page.pushOperators(PDFOperator.of('EMC' as never));
}

/** A tagged document: a Document element holding a paragraph and a figure (with `alt`, or none). */
async function tagged(options: {
  alt?: string;
  language?: string;
  displayTitle: boolean;
  scannedPage: boolean;
  customEncoding: boolean;
}) {
  const doc = await PDFDocument.create();
  doc.registerFontkit((await import('@pdf-lib/fontkit')).default);
  doc.setTitle('Accessibility fixture', { showInWindowTitleBar: options.displayTitle });
  if (options.language) doc.setLanguage(options.language);
  const font = await doc.embedFont(readFileSync(FONT), { subset: true });
  const page = doc.addPage([595, 842]);
  marked(page, 'P', 0, () => page.drawText('A paragraph of text.', { x: 72, y: 760, size: 14, font }));
  const picture = await doc.embedPng(png(150, 150));
  marked(page, 'Figure', 1, () => page.drawImage(picture, { x: 72, y: 500, width: 150, height: 150 }));
  if (options.customEncoding) {
    // a simple font whose encoding renames its glyphs, with no ToUnicode: its text cannot be extracted
    const custom = doc.context.register(
      doc.context.obj({
        Type: 'Font',
        Subtype: 'Type1',
        BaseFont: 'Helvetica',
        Encoding: doc.context.obj({
          Type: 'Encoding',
          Differences: [65, PDFName.of('g1'), PDFName.of('g2')],
        }),
      }),
    );
    page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict).set(PDFName.of('FCustom'), custom);
    page.pushOperators(
      PDFOperator.of('BT' as never),
      PDFOperator.of('Tf' as never, [PDFName.of('FCustom'), PDFNumber.of(12)]),
      PDFOperator.of('Td' as never, [PDFNumber.of(72), PDFNumber.of(300)]),
      PDFOperator.of('Tj' as never, [PDFHexString.of('4142')]),
      PDFOperator.of('ET' as never),
    );
  }
  if (options.scannedPage) {
    const scan = doc.addPage([595, 842]);
    scan.drawImage(await doc.embedPng(png(120, 170)), { x: 0, y: 0, width: 595, height: 842 });
  }
  const context = doc.context;
  const rootRef = context.nextRef();
  const documentRef = context.nextRef();
  const paragraph = context.register(
    context.obj({ Type: 'StructElem', S: 'P', P: documentRef, Pg: page.ref, K: 0 }),
  );
  const figureDict: Record<string, unknown> = {
    Type: 'StructElem',
    S: 'Figure',
    P: documentRef,
    Pg: page.ref,
    K: 1,
  };
  if (options.alt !== undefined) figureDict.Alt = PDFString.of(options.alt);
  const figure = context.register(context.obj(figureDict as never));
  context.assign(
    documentRef,
    context.obj({ Type: 'StructElem', S: 'Document', P: rootRef, K: [paragraph, figure] }),
  );
  const parentTree = context.obj({ Nums: [0, context.obj([paragraph, figure])] });
  context.assign(
    rootRef,
    context.obj({ Type: 'StructTreeRoot', K: documentRef, ParentTree: parentTree, ParentTreeNextKey: 1 }),
  );
  page.node.set(PDFName.of('StructParents'), PDFNumber.of(0));
  doc.catalog.set(PDFName.of('StructTreeRoot'), rootRef);
  doc.catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
  return doc;
}

async function accessibilityFixtures() {
  await save(
    'accessibility-tagged-alt-lang.pdf',
    await tagged({
      alt: 'A gradient',
      language: 'en-GB',
      displayTitle: true,
      scannedPage: false,
      customEncoding: false,
    }),
  );
  await save(
    'accessibility-tagged-no-alt-scan.pdf',
    await tagged({ displayTitle: false, scannedPage: true, customEncoding: true }),
  );
  const plain = await PDFDocument.create();
  plain
    .addPage([595, 842])
    .drawText('Untagged', { x: 72, y: 760, size: 20, font: await plain.embedFont(StandardFonts.Helvetica) });
  await save('accessibility-untagged.pdf', plain);
  await sameNameFonts();
  libreOffice();
}

/**
 * Two fonts called Calibri, as Word writes them: a simple one (WinAnsi, no ToUnicode) and a subset Type 0 one
 * with a ToUnicode map (DejaVu Serif from Debian's `fonts-dejavu-core`, renamed). Each must keep its own facts:
 * the Type 0 one was reported without its ToUnicode map, and failed `unicode_text`.
 */
async function sameNameFonts() {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const page = doc.addPage([300, 200]);
  const simple = await doc.embedFont(StandardFonts.Helvetica);
  const cid = await doc.embedFont(readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf'), {
    subset: true,
  });
  page.drawText('Simple text', { x: 20, y: 150, size: 12, font: simple });
  page.drawText('CID text', { x: 20, y: 100, size: 12, font: cid });
  await doc.flush();
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('Font')) continue;
    const subtype = object.get(PDFName.of('Subtype'));
    const name = subtype === PDFName.of('Type1') ? 'Calibri' : 'ABCDEF+Calibri';
    object.set(PDFName.of('BaseFont'), PDFName.of(name));
  }
  await save('accessibility-same-name-fonts.pdf', doc);
}

/** Tagged PDFs as LibreOffice writes them, a picture with and without its description (alternate text). */
function libreOffice() {
  const office = ['soffice', 'libreoffice'].find((command) => {
    try {
      execFileSync('which', [command], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!office) {
    console.log('LibreOffice not found: its fixtures are left as they are');
    return;
  }
  const picture = Buffer.from(png(120, 80)).toString('base64');
  for (const [name, description] of [
    ['libreoffice-tagged-alt', '<svg:desc>A gradient of colours</svg:desc>'],
    ['libreoffice-tagged-no-alt', ''],
  ] as const) {
    const fodt = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:meta><dc:title>LibreOffice fixture</dc:title><dc:language>en-GB</dc:language></office:meta>
<office:styles><style:default-style style:family="paragraph"><style:text-properties fo:language="en" fo:country="GB"/></style:default-style></office:styles>
<office:body><office:text>
<text:h text:outline-level="1">A heading</text:h>
<text:p>A paragraph and a picture.</text:p>
<text:p><draw:frame draw:name="Picture" text:anchor-type="as-char" svg:width="3cm" svg:height="2cm">
<draw:image><office:binary-data>${picture}</office:binary-data></draw:image>${description}</draw:frame></text:p>
</office:text></office:body></office:document>`;
    const source = path.join(work, `${name}.fodt`);
    writeFileSync(source, fodt);
    const filter = 'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"}}';
    execFileSync(office, ['--headless', '--convert-to', filter, '--outdir', work, source], {
      stdio: 'ignore',
    });
    writeFileSync(path.join(OUT, `${name}.pdf`), readFileSync(path.join(work, `${name}.pdf`)));
    console.log(`${name}.pdf`);
  }
}

try {
  await printFixtures();
  await archiveFixtures();
  await accessibilityFixtures();
} finally {
  rmSync(work, { recursive: true, force: true });
}
// keep the imports pdf-lib's typings need for the helpers above
void PDFArray;
void PDFRef;
