/**
 * Regenerates test/fixtures/pdfs/conformance/: a conformance corpus made from the standards' clauses, as the
 * outside corpora are (veraPDF's): each file is either conforming or fails exactly one clause of PDF/A-2b
 * (ISO 19005-2) or PDF/UA-1 (ISO 14289-1). The conforming bases come from writers nobody here wrote:
 * LibreOffice (`libreoffice-writer-nogui`: PDF/A-2b, and PDF/UA-1 with PDF/A-2b) and Ghostscript (PDF/A-2b);
 * one is built with pdf-lib to use ICC-based colour only. Each failing file is a base with one fault put in
 * by pdf-lib or qpdf. `corpus.json` lists every file with what it must get: `pass`, or `fail` and the clause
 * it breaks (and the check that claims the clause, or null where no check does: those count against the
 * verdict's rate honestly). The files are committed: `npm test` needs none of these tools.
 *
 *   node --import tsx scripts/make-conformance-corpus.mts
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { crc32, deflateSync } from 'node:zlib';
import path from 'node:path';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
} from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';

const OUT = path.resolve(import.meta.dirname, '../test/fixtures/pdfs/conformance');
const GS_LIB = readdirSync('/usr/share/ghostscript')
  .map((v) => path.join('/usr/share/ghostscript', v))
  .find((dir) => /^\d/.test(path.basename(dir)));
const ICC = `${GS_LIB}/iccprofiles`;
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const PROFILES = path.resolve(import.meta.dirname, '../test/fixtures/pdfs/profiles');
const work = mkdtempSync(path.join(tmpdir(), 'corpus-'));

type ProfileName = 'pdf-archive' | 'pdf-accessibility';
interface Entry {
  file: string;
  profile: ProfileName;
  standard: 'PDF/A-2b' | 'PDF/UA-1';
  expect: 'pass' | 'fail';
  clause: string | null;
  /** The check that claims the clause; null where the profile checks no such thing. */
  check: string | null;
  how: string;
}
const entries: Entry[] = [];

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

// ---- bases ------------------------------------------------------------------------------------------------

const HTML = `<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>Quarterly report</title></head><body>
<h1>Quarterly report</h1><p>Revenue grew in every region. See <a href="https://example.com/q3">the full figures</a>.</p>
<h2>Regions</h2>
<table border="1"><thead><tr><th>Region</th><th>Revenue</th></tr></thead>
<tbody><tr><td>North</td><td>120</td></tr><tr><td>South</td><td>80</td></tr></tbody></table>
<h2>Chart</h2><p><img src="chart.png" alt="A bar chart of revenue by region" width="160" height="120"></p>
<p>The end.</p></body></html>`;

/** A small PNG: a gradient, so that it is an image and not a flat colour. */
function chartPng(): Buffer {
  const width = 40;
  const height = 30;
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push((x * 6) % 256, (y * 8) % 256, 128);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])) >>> 0);
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** LibreOffice's PDF export of the document, with the export filter's options. */
function libreoffice(name: string, options: Record<string, boolean | number>): Uint8Array {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'chart.png'), chartPng());
  writeFileSync(path.join(dir, 'doc.html'), HTML);
  const filter = Object.fromEntries(
    Object.entries(options).map(([key, value]) => [
      key,
      { type: typeof value === 'boolean' ? 'boolean' : 'long', value: String(value) },
    ]),
  );
  execFileSync(
    'soffice',
    [
      '--headless',
      '--infilter=HTML (StarWriter)',
      '--convert-to',
      `pdf:writer_pdf_Export:${JSON.stringify(filter)}`,
      '--outdir',
      dir,
      path.join(dir, 'doc.html'),
    ],
    { stdio: 'ignore' },
  );
  return readFileSync(path.join(dir, 'doc.pdf'));
}

/** PDF/A-2b with ICC-based colour only, so no output intent is needed (ISO 19005-2, 6.2.4.3). */
async function iccOnlyPdfa(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(readFileSync(FONT), { subset: true });
  const page = doc.addPage([420, 300]);
  const icc = doc.context.stream(readFileSync(`${ICC}/srgb.icc`), { N: 3 });
  const space = doc.context.obj([PDFName.of('ICCBased'), doc.context.register(icc)]);
  const fontName = page.node.newFontDictionary('F1', font.ref);
  const text = font.encodeText('Colour from an ICC profile only');
  const csName = 'CS0';
  page.node.normalizedEntries().Resources.set(PDFName.of('ColorSpace'), doc.context.obj({ [csName]: space }));
  const content = doc.context.stream(
    `/${csName} cs /${csName} CS 0.1 0.2 0.6 sc BT /${fontName.asString().slice(1)} 18 Tf 30 200 Td ${text.toString()} Tj ET 0.8 0.1 0.1 sc 30 60 200 80 re f`,
  );
  page.node.set(PDFName.of('Contents'), doc.context.register(content));
  doc.setTitle('ICC colour only');
  setXmp(doc, xmpPacket({ title: 'ICC colour only', pdfa: true, pdfua: false }));
  doc.context.trailerInfo.ID = doc.context.obj([
    PDFHexString.of('0123456789abcdef0123456789abcdef'),
    PDFHexString.of('0123456789abcdef0123456789abcdef'),
  ]);
  return doc.save({ useObjectStreams: false });
}

function xmpPacket(options: { title: string; pdfa: boolean; pdfua: boolean }): string {
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${options.title}</rdf:li></rdf:Alt></dc:title></rdf:Description>
${options.pdfa ? '<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="2" pdfaid:conformance="B"/>' : ''}
${options.pdfua ? '<rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/" pdfuaid:part="1"/>' : ''}
</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;
}

function setXmp(doc: PDFDocument, xml: string): void {
  const stream = doc.context.stream(xml, { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}

/** The catalog's XMP as text (uncompressed, as PDF/A has it). */
function xmpOf(doc: PDFDocument): string {
  const stream = doc.context.lookup(doc.catalog.get(PDFName.of('Metadata')));
  if (!(stream instanceof PDFRawStream)) throw new Error('no XMP');
  return Buffer.from(stream.contents).toString('utf8');
}

// ---- faults -----------------------------------------------------------------------------------------------

type Mutation = (doc: PDFDocument) => void | Promise<void>;

const firstPage = (doc: PDFDocument) => doc.getPage(0).node;

/** Appends a content stream to the first page (wrapped as an artifact, so a tagged file stays tagged). */
function appendContent(doc: PDFDocument, operators: string, artifact: boolean): void {
  const page = firstPage(doc);
  const body = artifact ? `/Artifact BMC q ${operators} Q EMC` : `q ${operators} Q`;
  const stream = doc.context.register(doc.context.stream(body));
  const contents = page.get(PDFName.of('Contents'));
  const array = doc.context.obj([]) as PDFArray;
  const existing = doc.context.lookup(contents);
  if (existing instanceof PDFArray) for (const item of existing.asArray()) array.push(item);
  else if (contents) array.push(contents);
  array.push(stream);
  page.set(PDFName.of('Contents'), array);
}

function resources(doc: PDFDocument): PDFDict {
  return firstPage(doc).normalizedEntries().Resources;
}

function addResource(doc: PDFDocument, kind: string, name: string, value: PDFDict | PDFRef): void {
  const res = resources(doc);
  let dict = res.lookupMaybe(PDFName.of(kind), PDFDict);
  if (!dict) {
    dict = doc.context.obj({}) as PDFDict;
    res.set(PDFName.of(kind), dict);
  }
  dict.set(PDFName.of(name), value);
}

function addAnnotation(doc: PDFDocument, fields: Record<string, unknown>, appearance = true): void {
  const context = doc.context;
  const dict: Record<string, unknown> = { Type: 'Annot', Rect: [20, 20, 60, 40], ...fields };
  if (appearance) {
    const normal = context.stream('0 0 1 rg 0 0 40 20 re f', {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, 40, 20],
    });
    dict.AP = context.obj({ N: context.register(normal) });
  }
  const ref = context.register(context.obj(dict as never));
  const page = firstPage(doc);
  const annots = page.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (annots) annots.push(ref);
  else page.set(PDFName.of('Annots'), context.obj([ref]));
}

const unembeddedHelvetica = (doc: PDFDocument) =>
  doc.context.register(
    doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }),
  );

/** Every dictionary of the file of a structure type. */
function structElements(doc: PDFDocument, type: string): PDFDict[] {
  return doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter(
      (object): object is PDFDict =>
        object instanceof PDFDict &&
        object.get(PDFName.of('S'))?.toString() === `/${type}` &&
        object.has(PDFName.of('P')),
    );
}

function pageFonts(doc: PDFDocument): PDFDict[] {
  const fonts = resources(doc).lookupMaybe(PDFName.of('Font'), PDFDict);
  return fonts ? fonts.values().map((v) => doc.context.lookup(v) as PDFDict) : [];
}

// ---- writing ----------------------------------------------------------------------------------------------

async function variant(
  base: Uint8Array,
  file: string,
  entry: Omit<Entry, 'file'>,
  mutate: Mutation | undefined,
  post?: (path: string) => void,
): Promise<void> {
  const doc = await PDFDocument.load(base, { updateMetadata: false });
  if (mutate) await mutate(doc);
  const out = path.join(OUT, file);
  writeFileSync(out, await doc.save({ useObjectStreams: false }));
  if (post) post(out);
  entries.push({ file, ...entry });
  console.log(file);
}

const qpdf = (args: string[]) => (file: string) => {
  const temp = `${file}.tmp`;
  execFileSync('qpdf', [...args, file, temp]);
  rmSync(file);
  execFileSync('mv', [temp, file]);
};

const archivePass = (how: string) =>
  ({ profile: 'pdf-archive', standard: 'PDF/A-2b', expect: 'pass', clause: null, check: null, how }) as const;
const archiveFail = (clause: string, check: string | null, how: string) =>
  ({ profile: 'pdf-archive', standard: 'PDF/A-2b', expect: 'fail', clause, check, how }) as const;
const uaPass = (how: string) =>
  ({
    profile: 'pdf-accessibility',
    standard: 'PDF/UA-1',
    expect: 'pass',
    clause: null,
    check: null,
    how,
  }) as const;
const uaFail = (clause: string, check: string | null, how: string) =>
  ({ profile: 'pdf-accessibility', standard: 'PDF/UA-1', expect: 'fail', clause, check, how }) as const;

const loA = libreoffice('a', { SelectPdfVersion: 2 });
const loUARaw = libreoffice('ua', { SelectPdfVersion: 2, PDFUACompliance: true, UseTaggedPDF: true });
// LibreOffice 7.4 writes the page's tab order as a string, `/Tabs (S)`, where PDF (and PDF/UA 7.18.3) has the
// name `/S`: the conforming base has the name, and the file as LibreOffice wrote it is one of the failing ones
const loUA = await (async () => {
  const doc = await PDFDocument.load(loUARaw, { updateMetadata: false });
  for (const page of doc.getPages())
    if (page.node.has(PDFName.of('Tabs'))) page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
  return doc.save({ useObjectStreams: false });
})();
const gsA = readFileSync(path.join(PROFILES, 'archive-pdfa2b-ghostscript.pdf'));
const iccA = await iccOnlyPdfa();

// ---- PDF/A-2b ---------------------------------------------------------------------------------------------

await variant(loA, 'a-pass-libreoffice.pdf', archivePass('LibreOffice 7.4 PDF/A-2b export'), undefined);
await variant(gsA, 'a-pass-ghostscript.pdf', archivePass('Ghostscript PDF/A-2b'), undefined);
await variant(
  iccA,
  'a-pass-icc-only-no-intent.pdf',
  archivePass('ICC-based colour only, no output intent'),
  undefined,
);
await variant(
  loA,
  'a-pass-object-streams.pdf',
  archivePass('the LibreOffice file with object streams and a cross-reference stream'),
  undefined,
  qpdf(['--object-streams=generate', '--newline-before-endstream']),
);
await variant(
  gsA,
  'a-pass-ghostscript-object-streams.pdf',
  archivePass('the Ghostscript file with object streams'),
  undefined,
  qpdf(['--object-streams=generate', '--newline-before-endstream']),
);
await variant(
  loA,
  'a-pass-unused-unembedded-font.pdf',
  archivePass('an unembedded font in the resources, used by nothing'),
  (doc) => addResource(doc, 'Font', 'FUnused', unembeddedHelvetica(doc)),
);
await variant(
  loA,
  'a-pass-named-nextpage.pdf',
  archivePass('an OpenAction that is the NextPage named action'),
  (doc) => doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'Named', N: 'NextPage' })),
);
await variant(
  loA,
  'a-pass-text-annotation.pdf',
  archivePass('a printed Text annotation with a normal appearance'),
  (doc) => addAnnotation(doc, { Subtype: 'Text', F: 4, Contents: PDFString.of('A note') }),
);
await variant(
  gsA,
  'a-pass-gray-under-rgb-intent.pdf',
  archivePass('DeviceGray under an RGB output intent'),
  (doc) => appendContent(doc, '0.5 g 10 10 20 20 re f', false),
);
await variant(
  loA,
  'a-pass-multiply-blend.pdf',
  archivePass('a Multiply blend mode (PDF/A-2 allows transparency)'),
  (doc) =>
    addResource(
      doc,
      'ExtGState',
      'GSm',
      doc.context.obj({ Type: 'ExtGState', BM: 'Multiply', ca: 0.5 }) as PDFDict,
    ),
);

await variant(
  loA,
  'a-fail-6.1.3-no-trailer-id.pdf',
  archiveFail('6.1.3', 'trailer_id', 'the trailer /ID removed'),
  (doc) => {
    delete doc.context.trailerInfo.ID;
  },
);
await variant(
  loA,
  'a-fail-6.1.3-encrypted.pdf',
  archiveFail('6.1.3', 'not_encrypted', 'encrypted by qpdf (empty user password)'),
  undefined,
  qpdf(['--encrypt', '', 'owner', '256', '--']),
);
await variant(
  gsA,
  'a-fail-6.2.4.3-no-output-intent.pdf',
  archiveFail('6.2.4.3', 'output_intent', 'the output intent removed; DeviceRGB stays'),
  (doc) => {
    doc.catalog.delete(PDFName.of('OutputIntents'));
  },
);
await variant(
  loA,
  'a-fail-6.2.4.3-cmyk-under-rgb.pdf',
  archiveFail('6.2.4.3', 'output_intent', 'DeviceCMYK painted under an RGB output intent'),
  (doc) => appendContent(doc, '0 0 0 1 k 10 10 20 20 re f', false),
);
await variant(
  iccA,
  'a-fail-6.2.4.3-rgb-no-intent.pdf',
  archiveFail('6.2.4.3', 'output_intent', 'DeviceRGB with no output intent'),
  (doc) => appendContent(doc, '1 0 0 rg 10 10 20 20 re f', false),
);
await variant(
  gsA,
  'a-fail-6.2.3-abstract-profile.pdf',
  archiveFail('6.2.3', 'output_intent_profile', "the intent's ICC profile of device class abst"),
  (doc) => {
    const profile = readFileSync(`${ICC}/srgb.icc`);
    profile.write('abst', 12, 'latin1');
    const intents = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray);
    const intent = intents.lookup(0, PDFDict);
    intent.set(PDFName.of('DestOutputProfile'), doc.context.register(doc.context.stream(profile, { N: 3 })));
  },
);
await variant(
  loA,
  'a-fail-6.2.10-blend-mode.pdf',
  archiveFail('6.2.10', 'blend_modes', 'a blend mode ISO 32000-1 does not define'),
  // the page paints with the state: one in the resources that nothing uses is not judged (as veraPDF)
  (doc) => {
    addResource(doc, 'ExtGState', 'GSx', doc.context.obj({ Type: 'ExtGState', BM: 'Dissolve' }) as PDFDict);
    appendContent(doc, '/GSx gs 10 10 20 20 re f', false);
  },
);
await variant(
  loA,
  'a-fail-6.2.11.4.1-unembedded-font.pdf',
  archiveFail('6.2.11.4.1', 'fonts_embedded', 'text drawn with unembedded Helvetica'),
  (doc) => {
    addResource(doc, 'Font', 'FHelv', unembeddedHelvetica(doc));
    appendContent(doc, 'BT /FHelv 9 Tf 20 20 Td (Not embedded) Tj ET', false);
  },
);
for (const subtype of ['Movie', 'Sound', 'Screen', '3D'])
  await variant(
    loA,
    `a-fail-6.3.1-${subtype.toLowerCase()}-annotation.pdf`,
    archiveFail('6.3.1', 'annotation_types', `a ${subtype} annotation`),
    (doc) => addAnnotation(doc, { Subtype: subtype, F: 4 }),
  );
await variant(
  loA,
  'a-fail-6.3.2-no-flags.pdf',
  archiveFail('6.3.2', 'annotation_flags', 'a Text annotation without /F'),
  (doc) => addAnnotation(doc, { Subtype: 'Text', Contents: PDFString.of('A note') }),
);
await variant(
  loA,
  'a-fail-6.3.2-hidden.pdf',
  archiveFail('6.3.2', 'annotation_flags', 'a Square annotation printed but hidden'),
  (doc) => addAnnotation(doc, { Subtype: 'Square', F: 6 }),
);
await variant(
  loA,
  'a-fail-6.3.3-no-appearance.pdf',
  archiveFail('6.3.3', 'annotation_appearances', 'a Square annotation without /AP'),
  (doc) => addAnnotation(doc, { Subtype: 'Square', F: 4 }, false),
);
await variant(
  loA,
  'a-fail-6.3.3-down-appearance.pdf',
  archiveFail('6.3.3', 'annotation_appearances', 'an appearance dictionary with /D beside /N'),
  (doc) => {
    addAnnotation(doc, { Subtype: 'Square', F: 4 });
    const annots = firstPage(doc).lookup(PDFName.of('Annots'), PDFArray);
    const annotation = annots.lookup(annots.size() - 1, PDFDict);
    const ap = annotation.lookup(PDFName.of('AP'), PDFDict);
    ap.set(PDFName.of('D'), ap.get(PDFName.of('N'))!);
  },
);
await variant(
  loA,
  'a-fail-6.5.1-javascript-open-action.pdf',
  archiveFail('6.5.1', 'no_javascript', 'a JavaScript OpenAction'),
  (doc) =>
    doc.catalog.set(
      PDFName.of('OpenAction'),
      doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }),
    ),
);
await variant(
  loA,
  'a-fail-6.5.1-launch-link.pdf',
  archiveFail('6.5.1', 'forbidden_actions', 'a link that launches a program'),
  (doc) =>
    addAnnotation(
      doc,
      { Subtype: 'Link', F: 4, A: doc.context.obj({ S: 'Launch', F: PDFString.of('calc.exe') }) },
      false,
    ),
);
await variant(
  loA,
  'a-fail-6.5.1-named-print.pdf',
  archiveFail('6.5.1', 'forbidden_actions', 'an OpenAction that is the Print named action'),
  (doc) => doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'Named', N: 'Print' })),
);
await variant(
  loA,
  'a-fail-6.5.1-reset-form.pdf',
  archiveFail('6.5.1', 'forbidden_actions', 'a link whose action is ResetForm'),
  (doc) => addAnnotation(doc, { Subtype: 'Link', F: 4, A: doc.context.obj({ S: 'ResetForm' }) }, false),
);
await variant(
  loA,
  'a-fail-6.5.2-catalog-aa.pdf',
  archiveFail('6.5.2', 'additional_actions', 'the catalog has /AA'),
  (doc) =>
    doc.catalog.set(
      PDFName.of('AA'),
      doc.context.obj({ WC: doc.context.obj({ S: 'URI', URI: PDFString.of('https://example.com') }) }),
    ),
);
await variant(
  loA,
  'a-fail-6.5.2-page-aa.pdf',
  archiveFail('6.5.2', 'additional_actions', 'a page has /AA'),
  (doc) =>
    firstPage(doc).set(
      PDFName.of('AA'),
      doc.context.obj({ O: doc.context.obj({ S: 'URI', URI: PDFString.of('https://example.com') }) }),
    ),
);
await variant(
  loA,
  'a-fail-6.6.4-wrong-namespace.pdf',
  archiveFail('6.6.4', 'xmp_pdfa_claim', 'pdfaid bound to a namespace without its trailing slash'),
  (doc) =>
    setXmp(doc, xmpOf(doc).replace('http://www.aiim.org/pdfa/ns/id/', 'http://www.aiim.org/pdfa/ns/id')),
);
await variant(
  loA,
  'a-fail-6.6.4-no-conformance.pdf',
  archiveFail('6.6.4', 'xmp_pdfa_claim', 'pdfaid:conformance removed'),
  (doc) =>
    setXmp(
      doc,
      xmpOf(doc).replace(/<pdfaid:conformance>[^<]*<\/pdfaid:conformance>|pdfaid:conformance="[^"]*"/, ''),
    ),
);
await variant(
  loA,
  'a-fail-6.8-text-attachment.pdf',
  archiveFail('6.8', 'embedded_pdfa', 'an embedded text file (not PDF/A)'),
  async (doc) => {
    await doc.attach(Buffer.from('plain text'), 'notes.txt', {
      mimeType: 'text/plain',
      description: 'Notes',
    });
  },
);
// clauses no check claims: the verdict's rate counts them
await variant(
  loA,
  'a-fail-6.2.8-interpolate.pdf',
  archiveFail('6.2.8.1', 'image_dictionaries', 'an image with /Interpolate true'),
  (doc) => {
    for (const [, object] of doc.context.enumerateIndirectObjects())
      if (object instanceof PDFStream && object.dict.get(PDFName.of('Subtype'))?.toString() === '/Image')
        object.dict.set(PDFName.of('Interpolate'), doc.context.obj(true));
  },
);
await variant(
  loA,
  'a-fail-6.2.5-transfer-function.pdf',
  archiveFail('6.2.5', 'transfer_functions', 'a graphics state with a transfer function (/TR)'),
  // the page paints with the state: one in the resources that nothing uses is not judged (as veraPDF)
  (doc) => {
    addResource(doc, 'ExtGState', 'GSt', doc.context.obj({ Type: 'ExtGState', TR: 'Identity' }) as PDFDict);
    appendContent(doc, '/GSt gs 10 10 20 20 re f', false);
  },
);
await variant(
  loA,
  'a-fail-6.2.6-rendering-intent.pdf',
  archiveFail('6.2.6', 'rendering_intents', 'a rendering intent PDF does not define'),
  // the page paints with the state: one in the resources that nothing uses is not judged (as veraPDF)
  (doc) => {
    addResource(doc, 'ExtGState', 'GSr', doc.context.obj({ Type: 'ExtGState', RI: 'Vivid' }) as PDFDict);
    appendContent(doc, '/GSr gs 10 10 20 20 re f', false);
  },
);
await variant(
  loA,
  'a-fail-6.9-oc-config-without-name.pdf',
  archiveFail('6.9', null, 'an optional content configuration without /Name'),
  (doc) => {
    const group = doc.context.register(doc.context.obj({ Type: 'OCG', Name: PDFString.of('Layer') }));
    doc.catalog.set(
      PDFName.of('OCProperties'),
      doc.context.obj({
        OCGs: [group],
        D: doc.context.obj({ Order: [group] }),
        Configs: [doc.context.obj({ Order: [] })],
      }),
    );
  },
);

await variant(
  loA,
  'a-fail-6.4-need-appearances.pdf',
  archiveFail('6.4', null, 'an interactive form with /NeedAppearances true'),
  (doc) =>
    void doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [], NeedAppearances: true })),
);
await variant(
  loA,
  'a-fail-6.2.9-opi.pdf',
  archiveFail('6.2.9', null, 'a form XObject with an /OPI dictionary'),
  (doc) => {
    const form = doc.context.stream('0 0 1 1 re f', {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, 1, 1],
      OPI: doc.context.obj({ '2.0': doc.context.obj({ Type: 'OPI', Version: 2, F: PDFString.of('x.tif') }) }),
    });
    addResource(doc, 'XObject', 'Fopi', doc.context.register(form));
    appendContent(doc, '/Fopi Do', false);
  },
);

// ---- PDF/UA-1 ---------------------------------------------------------------------------------------------

await variant(
  loUA,
  'ua-pass-libreoffice.pdf',
  uaPass('LibreOffice 7.4 PDF/UA-1 (and PDF/A-2b) export'),
  undefined,
);
await variant(
  loUA,
  'ua-pass-object-streams.pdf',
  uaPass('the LibreOffice file with object streams'),
  undefined,
  qpdf(['--object-streams=generate', '--newline-before-endstream']),
);
await variant(
  loUA,
  'ua-fail-7.2-language-on-structure-only.pdf',
  uaFail(
    '7.2',
    'language',
    "the catalog's /Lang moved onto the Document element: the content keeps its language, the outline's titles and the XMP dc:title's x-default lose theirs (7.2-2, 7.2-33: only the catalog's /Lang gives them one)",
  ),
  (doc) => {
    const lang = doc.catalog.get(PDFName.of('Lang'))!;
    doc.catalog.delete(PDFName.of('Lang'));
    for (const element of structElements(doc, 'Document')) element.set(PDFName.of('Lang'), lang);
  },
);
await variant(
  loUA,
  'ua-pass-title-in-xmp-only.pdf',
  uaPass('the title in XMP dc:title only, none in the information dictionary'),
  (doc) => {
    const info = doc.context.lookup(doc.context.trailerInfo.Info) as PDFDict;
    info.delete(PDFName.of('Title'));
  },
);
await variant(
  loUA,
  'ua-pass-artifact-decoration.pdf',
  uaPass('a decorative rule marked as an artifact'),
  (doc) => appendContent(doc, '0.5 w 20 30 m 200 30 l S', true),
);

await variant(
  loUA,
  'ua-fail-5-no-pdfuaid.pdf',
  uaFail('5', 'xmp_pdfua_claim', 'pdfuaid removed from the XMP'),
  (doc) =>
    setXmp(
      doc,
      xmpOf(doc)
        .replace(/<rdf:Description[^>]*xmlns:pdfuaid[\s\S]*?(\/>|<\/rdf:Description>)/, '')
        .replace(/pdfuaid:part(="1"|>1<\/pdfuaid:part>)/, ''),
    ),
);
await variant(loUA, 'ua-fail-7.1-not-marked.pdf', uaFail('7.1', 'tagged', '/MarkInfo /Marked false'), (doc) =>
  doc.catalog.set(PDFName.of('MarkInfo'), doc.context.obj({ Marked: false })),
);
await variant(
  loUA,
  'ua-fail-7.1-suspects.pdf',
  uaFail('7.1', 'suspects', '/MarkInfo /Suspects true'),
  (doc) => doc.catalog.set(PDFName.of('MarkInfo'), doc.context.obj({ Marked: true, Suspects: true })),
);
await variant(
  loUA,
  'ua-fail-7.1-untagged-content.pdf',
  uaFail('7.1', 'untagged_content', 'a rule drawn outside any tag or artifact'),
  (doc) => appendContent(doc, '0.5 w 20 30 m 200 30 l S', false),
);
await variant(
  loUA,
  'ua-fail-7.1-nonstandard-type.pdf',
  uaFail('7.1', 'structure_types', 'a structure type with no role mapping'),
  (doc) => {
    const [paragraph] = structElements(doc, 'Text#20body');
    paragraph!.set(PDFName.of('S'), PDFName.of('Blurb'));
  },
);
await variant(
  loUA,
  'ua-fail-7.1-title-not-displayed.pdf',
  uaFail('7.1', 'title_displayed', '/DisplayDocTitle false'),
  (doc) => doc.catalog.set(PDFName.of('ViewerPreferences'), doc.context.obj({ DisplayDocTitle: false })),
);
await variant(
  loUA,
  'ua-fail-7.1-no-title.pdf',
  uaFail('7.1', 'title_displayed', 'no dc:title and no /Title'),
  (doc) => {
    const info = doc.context.lookup(doc.context.trailerInfo.Info) as PDFDict;
    info.delete(PDFName.of('Title'));
    setXmp(doc, xmpOf(doc).replace(/<dc:title>[\s\S]*?<\/dc:title>/, ''));
  },
);
await variant(
  loUA,
  'ua-fail-7.2-no-language.pdf',
  uaFail('7.2', 'language', "the catalog's /Lang removed"),
  (doc) => void doc.catalog.delete(PDFName.of('Lang')),
);
await variant(
  loUA,
  'ua-fail-7.2-bad-language.pdf',
  uaFail('7.2', 'language', '/Lang (en_US), no BCP 47 tag'),
  (doc) => doc.catalog.set(PDFName.of('Lang'), PDFString.of('en_US')),
);
await variant(
  loUA,
  'ua-fail-7.3-figure-without-alt.pdf',
  uaFail('7.3', 'figures_alt_text', "the figure's /Alt removed"),
  (doc) => {
    for (const figure of structElements(doc, 'Figure')) figure.delete(PDFName.of('Alt'));
  },
);
await variant(
  loUA,
  'ua-fail-7.4.2-skipped-heading.pdf',
  uaFail('7.4.2', 'heading_nesting', 'the first H2 made an H3'),
  (doc) => {
    const [heading] = structElements(doc, 'H2');
    heading!.set(PDFName.of('S'), PDFName.of('H3'));
  },
);
await variant(
  loUA,
  'ua-fail-7.5-header-without-scope.pdf',
  uaFail('7.5', 'table_headers', "the TH cells' Scope removed"),
  (doc) => {
    for (const cell of structElements(doc, 'TH')) cell.delete(PDFName.of('A'));
  },
);
await variant(
  loUA,
  'ua-fail-7.18.1-link-without-contents.pdf',
  uaFail('7.18.1', 'annotation_descriptions', "the link's /Contents removed"),
  (doc) => {
    const annots = firstPage(doc).lookup(PDFName.of('Annots'), PDFArray);
    annots.lookup(0, PDFDict).delete(PDFName.of('Contents'));
  },
);
await variant(
  loUA,
  'ua-fail-7.18.1-link-untagged.pdf',
  uaFail('7.18.1', 'annotations_tagged', "the link's /StructParent removed"),
  (doc) => {
    const annots = firstPage(doc).lookup(PDFName.of('Annots'), PDFArray);
    annots.lookup(0, PDFDict).delete(PDFName.of('StructParent'));
  },
);
await variant(
  loUA,
  'ua-fail-7.18.3-no-tabs.pdf',
  uaFail('7.18.3', 'tab_order', "the page's /Tabs removed"),
  (doc) => void firstPage(doc).delete(PDFName.of('Tabs')),
);
await variant(
  loUARaw,
  'ua-fail-7.18.3-tabs-string.pdf',
  uaFail('7.18.3', 'tab_order', 'LibreOffice 7.4 as written: /Tabs (S), a string'),
  undefined,
);
await variant(
  loUA,
  'ua-fail-7.21.4.1-unembedded-font.pdf',
  uaFail('7.21.4.1', 'fonts_embedded', 'an artifact drawn with unembedded Helvetica'),
  (doc) => {
    addResource(doc, 'Font', 'FHelv', unembeddedHelvetica(doc));
    appendContent(doc, 'BT /FHelv 9 Tf 20 20 Td (page 1) Tj ET', true);
  },
);
await variant(
  loUA,
  'ua-fail-7.21.7-no-tounicode.pdf',
  uaFail('7.21.7', 'unicode_text', "a symbolic TrueType font's ToUnicode removed"),
  (doc) => {
    for (const font of pageFonts(doc)) font.delete(PDFName.of('ToUnicode'));
  },
);
// clauses no check claimed until the PDF/UA-1 rules (2026-12-02)
await variant(
  loUA,
  'ua-fail-7.9-note-without-id.pdf',
  uaFail('7.9', 'note_ids', 'a Note element without an /ID'),
  (doc) => {
    const [paragraph] = structElements(doc, 'Text#20body');
    paragraph!.set(PDFName.of('S'), PDFName.of('Note'));
  },
);
await variant(
  loUA,
  'ua-fail-7.10-oc-config-without-name.pdf',
  uaFail('7.10', 'optional_content', 'an optional content configuration without /Name'),
  (doc) => {
    const group = doc.context.register(doc.context.obj({ Type: 'OCG', Name: PDFString.of('Layer') }));
    doc.catalog.set(
      PDFName.of('OCProperties'),
      doc.context.obj({ OCGs: [group], D: doc.context.obj({ Order: [group] }) }),
    );
  },
);

writeFileSync(path.join(OUT, 'corpus.json'), `${JSON.stringify(entries, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
console.log(`${entries.length} files`);
