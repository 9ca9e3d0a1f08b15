import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { ascii85Decode, asciiHexDecode } from '../../src/pdf/cos/ascii-filters.js';
import { CosFile } from '../../src/pdf/cos/file.js';
import type { PdfStream } from '../../src/pdf/cos/syntax.js';
import { fileHeader } from '../../src/pdf/file-header.js';
import { catalogFacts, pageStructure } from '../../src/pdf/structure.js';

/**
 * The reader of the file's objects on what real files and hostile ones throw at it: object streams and
 * compressed xrefs, an xref whose offsets are all wrong, reference cycles, a structure tree and a page tree
 * that contain themselves. It answers, and fast; it never throws or loops.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'cos-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function open(bytes: Uint8Array | string) {
  const file = path.join(dir, `${Math.random()}.pdf`);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  const cos = new CosFile(fd, typeof bytes === 'string' ? Buffer.byteLength(bytes, 'latin1') : bytes.length);
  return { cos, close: () => closeSync(fd) };
}

/** A PDF of `objects` (bodies of objects 1..n) with a correct classic xref; object 1 is the catalog. */
function handMade(objects: string[]): string {
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}

const PAGES = '<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 200 100] >>';

describe('the reader of the file objects', () => {
  it('reads object streams through a compressed xref (pdf-lib with object streams)', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 400]);
    doc.setLanguage('de-CH');
    doc.setTitle('T', { showInWindowTitleBar: true });
    const { cos, close } = open(await doc.save({ useObjectStreams: true }));
    expect(catalogFacts(cos, cos.read(0, 1024), null)).toMatchObject({ display_doc_title: true });
    expect(cos.get(cos.catalog, 'Lang')).toBeInstanceOf(Uint8Array);
    close();
  });

  it('an xref whose offsets are all wrong: the objects are found by scanning the file', () => {
    const good = handMade([
      '<< /Type /Catalog /Pages 2 0 R /MarkInfo << /Marked true >> /StructTreeRoot 4 0 R >>',
      PAGES,
      '<< /Type /Page /Parent 2 0 R /TrimBox [10 10 190 90] >>',
      '<< /Type /StructTreeRoot /K [<< /S /Figure /Alt (a picture) >> << /S /Figure >>] >>',
    ]);
    // 37 bytes of junk before the header: every offset in the xref now points 37 bytes early
    const { cos, close } = open(`${'%junk'.repeat(7)}\n\n${good}`);
    expect(catalogFacts(cos, cos.read(0, 1024), null)).toMatchObject({
      tagged: true,
      struct_figures: 2,
      struct_figures_without_alt: 1,
    });
    expect(pageStructure(cos, 3)?.boxes).toMatchObject({ media: [0, 0, 200, 100], trim: [10, 10, 190, 90] });
    close();
  });

  it('reference cycles, a structure tree and a page tree that contain themselves end, quickly', () => {
    const { cos, close } = open(
      handMade([
        '<< /Type /Catalog /Pages 2 0 R /Lang 5 0 R /StructTreeRoot 4 0 R /Metadata 6 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 3 0 R >>',
        '<< /Type /Page /Parent 2 0 R /Resources << /XObject << /X 7 0 R >> >> >>',
        '<< /Type /StructTreeRoot /K 8 0 R >>',
        '6 0 R',
        '5 0 R',
        '<< /Subtype /Form /Resources << /XObject << /X 7 0 R >> >> /Length 0 >>\nstream\n\nendstream',
        '<< /S /Figure /K [8 0 R 8 0 R] >>',
      ]),
    );
    const started = performance.now();
    const facts = catalogFacts(cos, cos.read(0, 1024), null);
    expect(facts).toMatchObject({ xmp_metadata: false, struct_figures: 1, pdfa: null });
    // no MediaBox anywhere up a Parent chain that loops: the default letter size
    expect(pageStructure(cos, 3)?.boxes.media).toEqual([0, 0, 612, 792]);
    expect(performance.now() - started).toBeLessThan(1000);
    close();
  });

  it('bytes that are no PDF, or an empty file, give no catalog and no error', () => {
    for (const bytes of ['', 'hello world\n'.repeat(1000), '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages (']) {
      const { cos, close } = open(bytes);
      expect(cos.catalog).toBeUndefined();
      expect(catalogFacts(cos, cos.read(0, 1024), null).tagged).toBe(false);
      close();
    }
  });
});

describe('stream filters', () => {
  const latin = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('latin1') : bytes);

  it('decodes ASCIIHex (white space, lower case, an odd last digit) and ASCII85 (z, a short last group)', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(latin(asciiHexDecode(bytes('48 65\n6c6C6F>ignored')))).toBe('Hello');
    expect([...asciiHexDecode(bytes('7>'))!]).toEqual([0x70]);
    expect(asciiHexDecode(bytes('4G>'))).toBeUndefined();
    expect(latin(ascii85Decode(bytes('87cURD_*#TDfTZ)+T~>')))).toBe('Hello, world!');
    expect([...ascii85Decode(bytes('z@:E^~>'))!]).toEqual([0, 0, 0, 0, 97, 98, 99]);
    // a z is four bytes for one: a run of them is not cut short
    expect([...ascii85Decode(bytes('zzzz~>'))!]).toEqual(new Array(16).fill(0));
    expect(ascii85Decode(bytes('87cU{~>'))).toBeUndefined();
  });

  it('reads a stream through a chain of filters, each with its own parameters', () => {
    const content = "Garg^;:'MC<%p.,#Y@tAnAs*Y#g#t`%06Gm5Qu3~>";
    const hex = Buffer.from('BT /F1 12 Tf (Hi) Tj ET', 'latin1').toString('hex');
    const { cos, close } = open(
      handMade([
        '<< /Type /Catalog /Pages 2 0 R >>',
        PAGES,
        `<< /Length ${content.length} /Filter [/ASCII85Decode /FlateDecode] /DecodeParms [null null] >>\nstream\n${content}\nendstream`,
        `<< /Length ${hex.length + 1} /Filter /AHx >>\nstream\n${hex}>\nendstream`,
        `<< /Length 4 /Filter /LZWDecode >>\nstream\nabcd\nendstream`,
      ]),
    );
    const stream = (n: number) => cos.object(n) as unknown as { stream: PdfStream };
    expect(latin(cos.streamBytes(stream(3)))).toBe('BT /F1 12 Tf (Hi) Tj ET');
    expect(latin(cos.streamBytes(stream(4)))).toBe('BT /F1 12 Tf (Hi) Tj ET');
    expect(cos.streamBytes(stream(5))).toBeUndefined();
    close();
  });
});

describe('the file header', () => {
  const head = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
  const binary = '%\xe2\xe3\xcf\xd3\n1 0 obj';

  it.each([
    ['%PDF-1.7\n' + binary, { at_start: true, version: '1.7', single_eol: true, binary_comment: true }],
    ['%PDF-1.4\r\n' + binary, { at_start: true, version: '1.4', single_eol: true, binary_comment: true }],
    [' %PDF-1.4\n' + binary, { at_start: false, version: '1.4', single_eol: true, binary_comment: true }],
    ['%PDF-1.7   \n' + binary, { at_start: true, version: '1.7   ', single_eol: true, binary_comment: true }],
    ['%PDF-1.7\n\n' + binary, { at_start: true, version: '1.7', single_eol: false, binary_comment: false }],
    [
      '%PDF-1.7\n%\xe2\xe3\xcf\n1 0 obj',
      { at_start: true, version: '1.7', single_eol: true, binary_comment: false },
    ],
    [
      '%PDF-1.7\n%a\xe3\xcf\xd3\n',
      { at_start: true, version: '1.7', single_eol: true, binary_comment: false },
    ],
    [
      '%PDF-1.7\n%\xe2\xe3\xcf\xd3ab\n',
      { at_start: true, version: '1.7', single_eol: true, binary_comment: true },
    ],
    ['1 0 obj', { at_start: false, version: null, single_eol: false, binary_comment: false }],
  ])('%j', (text, expected) => {
    expect(fileHeader(head(text))).toEqual(expected);
  });
});
