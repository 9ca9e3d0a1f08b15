import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { CosFile } from '../../src/pdf/cos/file.js';
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
