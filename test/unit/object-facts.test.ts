import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CosFile } from '../../src/pdf/cos/file.js';
import { catalogFacts } from '../../src/pdf/structure.js';
import { isDict, isStream, nameOf } from '../../src/pdf/cos/syntax.js';
import { cffGlyphNames } from '../../src/pdf/glyph-count.js';
import { type1GlyphNames } from '../../src/pdf/type1-glyphs.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ota-syntax-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A PDF written byte by byte: `objects` are the bodies after each `N 0 obj` (as written, frames included
 * when `framed` is false), with a cross-reference table that points at each.
 */
function pdf(objects: string[], { framed = true, trailer = '' } = {}): Buffer {
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += framed ? `${i + 1} 0 obj\n${body}\nendobj\n` : body;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

let count = 0;

/** `read` given the file of `bytes`, opened as the service opens it. */
function withCos<T>(bytes: Buffer, read: (cos: CosFile) => T): T {
  const file = path.join(dir, `f${count++}.pdf`);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    return read(new CosFile(fd, fstatSync(fd).size));
  } finally {
    closeSync(fd);
  }
}

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const PAGES = '<< /Type /Pages /Kids [] /Count 0 >>';

describe('glyphs in embedded TrueType programs, as fontkit reads them', () => {
  it('counts the outlined glyphs of every FontFile2 in the fixtures as fontkit does', async () => {
    const { create } = (await import('@pdf-lib/fontkit')).default as unknown as {
      create(buffer: Buffer): { numGlyphs: number; getGlyph(id: number): { path: { commands: unknown[] } } };
    };
    const { outlinedGlyphs } = await import('../../src/pdf/glyph-count.js');
    const { isStream } = await import('../../src/pdf/cos/syntax.js');
    let programs = 0;
    for (const name of ['conformance/a-pass-libreoffice.pdf', 'real/cups-filters__form_english.pdf']) {
      const file = path.resolve(import.meta.dirname, '../fixtures/pdfs', name);
      const fd = openSync(file, 'r');
      try {
        const cos = new CosFile(fd, fstatSync(fd).size);
        for (const [num] of cos.listed()) {
          const value = cos.object(num);
          const dict = isStream(value) ? undefined : value instanceof Map ? value : undefined;
          const program = dict ? cos.get(dict, 'FontFile2') : undefined;
          if (!isStream(program)) continue;
          const bytes = cos.streamBytes(program)!;
          const font = create(Buffer.from(bytes));
          const judged = Array.from({ length: font.numGlyphs }, (_, id) => id).filter(
            (id) => font.getGlyph(id).path.commands.length > 0,
          );
          expect(outlinedGlyphs(bytes), `${name} object ${num}`).toEqual(judged);
          programs++;
        }
      } finally {
        closeSync(fd);
      }
    }
    expect(programs).toBeGreaterThanOrEqual(2);
  });
});

describe('the trailer ID (6.1.3)', () => {
  const ID = '/ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]';
  function trailerId(bytes: Buffer): boolean {
    return withCos(bytes, (cos) => {
      return catalogFacts(cos, bytes.subarray(0, 1024), null).trailer_id;
    });
  }
  /** `bytes` with an update appended whose trailer adds `entries`, and names the older one in /Prev. */
  function updated(bytes: Buffer, entries: string): Buffer {
    const text = bytes.toString('latin1');
    const prev = Number(/startxref\n(\d+)/.exec(text)![1]);
    const xref = bytes.length;
    return Buffer.concat([
      bytes,
      Buffer.from(
        `xref\n0 0\ntrailer\n<< /Size 3 /Root 1 0 R /Prev ${prev} ${entries}>>\nstartxref\n${xref}\n%%EOF\n`,
        'latin1',
      ),
    ]);
  }

  it('passes two non-empty strings in the newest trailer, and fails empty ones or none', () => {
    expect(trailerId(pdf([CATALOG, PAGES], { trailer: ID }))).toBe(true);
    expect(trailerId(pdf([CATALOG, PAGES], { trailer: '/ID [<> <>]' }))).toBe(false);
    expect(trailerId(pdf([CATALOG, PAGES]))).toBe(false);
  });

  it("fails an ID that only an older trailer holds (a linearized file's main trailer)", () => {
    expect(trailerId(updated(pdf([CATALOG, PAGES], { trailer: ID }), ''))).toBe(false);
    expect(trailerId(updated(pdf([CATALOG, PAGES]), ID))).toBe(true);
  });
});

describe('the glyph names of Type 1 and CFF programs, against the CharSet their writers listed', () => {
  /** Type 1 eexec encryption (Adobe Type 1 Font Format, 7.1), four leading bytes as the format asks. */
  function eexec(plain: string): Buffer {
    const bytes = Buffer.concat([Buffer.from([0x80, 0x81, 0x82, 0x83]), Buffer.from(plain, 'latin1')]);
    const out = Buffer.alloc(bytes.length);
    let r = 55665;
    for (let i = 0; i < bytes.length; i++) {
      out[i] = bytes[i]! ^ (r >> 8);
      r = ((out[i]! + r) * 52845 + 22719) & 0xffff;
    }
    return out;
  }
  const clear = '%!PS-AdobeFont-1.0: Test\n/FontName /Test def\ncurrentfile eexec\n';
  const charStrings = (names: string[]) =>
    `dup /Private 8 dict dup begin /RD{string currentfile exch readstring pop}executeonly def\n` +
    `2 index /CharStrings ${names.length} dict dup begin\n` +
    names.map((name) => `/${name} 3 RD \x01\x02\x03 ND\n`).join('') +
    'end\nend\n';

  it('reads the CharStrings of a Type 1 program, binary or hexadecimal', () => {
    const names = ['.notdef', 'A', 'B', 'quoteright'];
    const binary = Buffer.concat([Buffer.from(clear, 'latin1'), eexec(charStrings(names))]);
    expect(type1GlyphNames(binary, clear.length)).toEqual(names);
    const hex = Buffer.concat([
      Buffer.from(clear, 'latin1'),
      Buffer.from(
        eexec(charStrings(names))
          .toString('hex')
          .replace(/(.{64})/g, '$1\n'),
        'latin1',
      ),
    ]);
    expect(type1GlyphNames(hex, clear.length)).toEqual(names);
    expect(type1GlyphNames(Buffer.from(clear, 'latin1'), clear.length)).toBeUndefined();
  });

  it('names the glyphs of real Type 1 and CFF programs as their writers listed them in /CharSet', () => {
    const agreed = { type1: 0, cff: 0 };
    for (const fixture of [
      'documents/gnuplot-doc__gnuplot-p1-40.pdf',
      'documents/ghostscript-doc__GS9_Color_Management-33p.pdf',
      'profiles/archive-pdfa2b-ghostscript.pdf',
      'profiles/print-pdfx3-cmyk-320ppi.pdf',
    ]) {
      const file = path.join('test/fixtures/pdfs', fixture);
      const fd = openSync(file, 'r');
      try {
        const cos = new CosFile(fd, fstatSync(fd).size);
        for (const [num] of cos.listed()) {
          const descriptor = cos.object(num);
          if (!isDict(descriptor) || nameOf(descriptor.get('Type')) !== 'FontDescriptor') continue;
          const charSet = cos.get(descriptor, 'CharSet');
          if (!(charSet instanceof Uint8Array)) continue;
          const listed = Buffer.from(charSet).toString('latin1').split('/').filter(Boolean).sort();
          const type1 = cos.get(descriptor, 'FontFile');
          const cff = cos.get(descriptor, 'FontFile3');
          let names: string[] | undefined;
          if (isStream(type1)) {
            const length1 = cos.get(type1.stream.dict, 'Length1') as number;
            names = type1GlyphNames(cos.streamBytes(type1)!, length1);
            agreed.type1++;
          } else if (isStream(cff)) {
            names = cffGlyphNames(cos.streamBytes(cff)!);
            agreed.cff++;
          } else continue;
          expect(names?.filter((name) => name !== '.notdef').sort(), `${fixture} object ${num}`).toEqual(
            listed,
          );
        }
      } finally {
        closeSync(fd);
      }
    }
    expect(agreed.type1).toBeGreaterThanOrEqual(10);
    expect(agreed.cff).toBeGreaterThanOrEqual(2);
  });
});
