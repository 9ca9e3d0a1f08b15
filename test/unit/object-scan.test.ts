import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CosFile } from '../../src/pdf/cos/file.js';
import { scanObjects } from '../../src/pdf/object-scan.js';
import { catalogFacts } from '../../src/pdf/structure.js';
import { nestingProblem, tableProblems } from '../../src/pdf/struct-nesting.js';
import { cellsWithoutHeaders, layTable, type TableCell } from '../../src/pdf/table-layout.js';
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
/** What the scan finds of ISO 14289-1 in the file of `bytes`. */
function findings(bytes: Buffer) {
  return withCos(bytes, (cos) => scanObjects(cos).ua);
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

  it('fails a CharSet that leaves out a glyph of its Type 1 program, and passes one that lists them all', () => {
    const program = Buffer.concat([Buffer.from(clear, 'latin1'), eexec(charStrings(['.notdef', 'a', 'b']))]);
    const withCharSet = (charSet: string) =>
      pdf([
        CATALOG,
        PAGES,
        '<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Test /FontDescriptor 4 0 R >>',
        `<< /Type /FontDescriptor /FontName /ABCDEF+Test /CharSet (${charSet}) /FontFile 5 0 R >>`,
        `<< /Length ${program.length} /Length1 ${clear.length} /Length2 ${program.length - clear.length} /Length3 0 >>\nstream\n${program.toString('latin1')}\nendstream`,
      ]);
    expect(findings(withCharSet('/a'))[0]).toMatchObject({
      clause: '7.21.4.2',
      message: expect.stringContaining('leaves out 1 glyphs its program holds (b)'),
    });
    expect(findings(withCharSet('/a/b'))).toEqual([]);
    // the CharSet names the program's glyphs exactly: one it does not hold is a finding too
    expect(findings(withCharSet('/a/b/c'))[0]).toMatchObject({
      clause: '7.21.4.2',
      message: expect.stringContaining('lists 1 glyphs its program does not hold (c)'),
    });
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

describe('composite fonts as PDF/UA-1 asks (ISO 14289-1 7.21.3)', () => {
  function ua(bytes: Buffer) {
    return withCos(bytes, (cos) => {
      return scanObjects(cos).ua;
    });
  }
  const system = (registry: string, ordering: string, supplement: number) =>
    `<< /Registry (${registry}) /Ordering (${ordering}) /Supplement ${supplement} >>`;
  /** A Type 0 font (object 3) whose encoding is `encoding` and whose CIDFont (object 4) is `cidFont`. */
  const composite = (encoding: string, cidFont: string, more: string[] = []) =>
    pdf([
      CATALOG,
      PAGES,
      `<< /Type /Font /Subtype /Type0 /BaseFont /Test /Encoding ${encoding} /DescendantFonts [4 0 R] >>`,
      cidFont,
      ...more,
    ]);
  const cidFont0 = (info: string) =>
    `<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Test /CIDSystemInfo ${info} >>`;
  const cmap = (info: string, declared: number, defined: number) => {
    const program = `/CIDInit /ProcSet findresource begin\n/WMode ${defined} def\nbegincmap\nendcmap\n`;
    return `<< /Type /CMap /CMapName /Test /CIDSystemInfo ${info} /WMode ${declared} /Length ${program.length} >>\nstream\n${program}\nendstream`;
  };

  it('asks a CMap other than Identity-H or -V to be embedded, with the /WMode its program defines', () => {
    expect(ua(composite('/Identity-H', cidFont0(system('Adobe', 'Identity', 0))))).toEqual([]);
    expect(ua(composite('/Adobe-Korea1-2', cidFont0(system('Adobe', 'Korea1', 2))))).toEqual([
      { clause: '7.21.3.3', message: 'the CMap Adobe-Korea1-2 of Test is not embedded' },
    ]);
    const korea = system('Adobe', 'Korea1', 2);
    expect(ua(composite('5 0 R', cidFont0(korea), [cmap(korea, 0, 0)]))).toEqual([]);
    expect(ua(composite('5 0 R', cidFont0(korea), [cmap(korea, 1, 0)]))[0]).toMatchObject({
      clause: '7.21.3.3',
      message: expect.stringContaining('declares /WMode 1 and its program defines 0'),
    });
  });

  it("holds a CIDFont's CIDSystemInfo to its CMap's: the same collection, a Supplement no later", () => {
    const korea2 = system('Adobe', 'Korea1', 2);
    const finding = (font: string) => ua(composite('5 0 R', cidFont0(font), [cmap(korea2, 0, 0)]));
    expect(finding(system('Adobe', 'Korea1', 1))).toEqual([]);
    expect(finding(system('adobe', 'Korea1', 2))[0]).toMatchObject({ clause: '7.21.3.1' });
    expect(finding(system('Adobe', 'China1', 2))[0]?.message).toContain('Adobe-China1');
    expect(finding(system('Adobe', 'Korea1', 3))[0]?.message).toContain('Supplement 3, later than');
  });

  it('asks an embedded TrueType CIDFont for a CIDToGIDMap of Identity or a stream', () => {
    const type2 = (map: string) =>
      composite(
        '/Identity-H',
        `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Test /CIDSystemInfo ${system('Adobe', 'Identity', 0)} /FontDescriptor 5 0 R ${map} >>`,
        [
          '<< /Type /FontDescriptor /FontName /Test /FontFile2 6 0 R >>',
          '<< /Length 4 >>\nstream\ntrue\nendstream',
        ],
      );
    expect(ua(type2('/CIDToGIDMap /Identity'))).toEqual([]);
    expect(ua(type2(''))[0]).toMatchObject({
      clause: '7.21.3.2',
      message: expect.stringContaining('no /CIDToGIDMap'),
    });
    expect(ua(type2('/CIDToGIDMap /NoIdentity'))[0]).toMatchObject({ clause: '7.21.3.2' });
  });
});

describe('optional content, XObjects and formulas as PDF/UA-1 asks (7.10, 7.20, 7.7)', () => {
  function scanned(bytes: Buffer) {
    return withCos(bytes, (cos) => catalogFacts(cos, bytes.subarray(0, 1024), null).ua_findings);
  }
  const withCatalog = (entries: string, ...more: string[]) =>
    pdf([`<< /Type /Catalog /Pages 2 0 R ${entries} >>`, PAGES, ...more]);

  it('asks every optional content configuration for a name, and none for /AS', () => {
    const named = withCatalog('/OCProperties << /OCGs [] /D << /Name (Default) >> >>');
    expect(scanned(named)).toEqual([]);
    expect(scanned(withCatalog('/OCProperties << /OCGs [] /D << /Name () >> >>'))).toEqual([
      { clause: '7.10', message: 'the default optional content configuration has no /Name' },
    ]);
    const configs = withCatalog(
      '/OCProperties << /OCGs [] /D << /Name (Default) >> /Configs [<< /Name (Print) /AS [] >>] >>',
    );
    expect(scanned(configs)).toEqual([
      { clause: '7.10', message: 'optional content configuration 1 has an /AS entry' },
    ]);
  });

  it('fails a reference XObject and a PostScript XObject', () => {
    const form = (entries: string) =>
      withCatalog(
        '',
        `<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] ${entries} /Length 0 >>\nstream\n\nendstream`,
      );
    expect(scanned(form(''))).toEqual([]);
    expect(scanned(form('/Ref << /F (other.pdf) /Page 0 >>'))).toEqual([
      { clause: '7.20', message: 'form XObject 3 is a reference XObject (/Ref)' },
    ]);
    const ps = withCatalog('', '<< /Type /XObject /Subtype /PS /Length 0 >>\nstream\n\nendstream');
    expect(scanned(ps)).toEqual([{ clause: '7.20', message: 'object 3 is a PostScript XObject' }]);
  });

  it('asks a Formula for alternate text that says something, or replacement text', () => {
    const formula = (entries: string) =>
      withCatalog(
        '/StructTreeRoot 3 0 R /MarkInfo << /Marked true >>',
        '<< /Type /StructTreeRoot /K 4 0 R >>',
        `<< /Type /StructElem /S /Formula /P 3 0 R ${entries} >>`,
      );
    expect(scanned(formula('/Alt (a squared plus b squared)'))).toEqual([]);
    expect(scanned(formula('/ActualText ()'))).toEqual([]);
    const missing = { clause: '7.7', message: '1 Formula elements have neither /Alt nor /ActualText' };
    expect(scanned(formula(''))).toEqual([missing]);
    expect(scanned(formula('/Alt ()'))).toEqual([missing]);
  });
});

describe('non-symbolic TrueType encodings as PDF/UA-1 asks (7.21.6)', () => {
  function ua(bytes: Buffer) {
    return withCos(bytes, (cos) => {
      return scanObjects(cos).ua;
    });
  }
  const trueType = (encoding: string, flags = 32) =>
    pdf([
      CATALOG,
      PAGES,
      `<< /Type /Font /Subtype /TrueType /BaseFont /Test ${encoding} /FontDescriptor 4 0 R >>`,
      `<< /Type /FontDescriptor /FontName /Test /Flags ${flags} >>`,
    ]);

  it('asks MacRoman or WinAnsi of a non-symbolic TrueType font, and Differences the Adobe Glyph List knows', () => {
    expect(ua(trueType('/Encoding /WinAnsiEncoding'))).toEqual([]);
    expect(ua(trueType('/Encoding << /BaseEncoding /MacRomanEncoding /Differences [96 /grave] >>'))).toEqual(
      [],
    );
    expect(ua(trueType(''))[0]).toMatchObject({
      clause: '7.21.6',
      message: expect.stringContaining('without MacRomanEncoding or WinAnsiEncoding'),
    });
    expect(ua(trueType('/Encoding << /BaseEncoding /Identity >>'))[0]?.message).toContain('by Identity');
    expect(
      ua(trueType('/Encoding << /BaseEncoding /WinAnsiEncoding /Differences [96 /gravee] >>'))[0]?.message,
    ).toContain('(gravee)');
    // a symbolic font is encoded by its own cmap: not this rule's
    expect(ua(trueType('', 4))).toEqual([]);
  });
});

describe('the nesting of tables, lists and tables of contents (ISO 14289-1 7.2, ISO 32000-1 14.8.4)', () => {
  it('finds what ISO 32000-1 does not allow where, and passes what it does', () => {
    expect(nestingProblem('TR', 'TBody')).toBeUndefined();
    expect(nestingProblem('TD', 'TR')).toBeUndefined();
    expect(nestingProblem('Caption', 'Table')).toBeUndefined();
    expect(nestingProblem('LBody', 'LI')).toBeUndefined();
    expect(nestingProblem('P', 'LBody')).toBeUndefined();
    expect(nestingProblem('P', 'Table')).toBe('P inside Table');
    expect(nestingProblem('Span', 'TR')).toBe('Span inside TR');
    expect(nestingProblem('LI', 'Document')).toBe('LI outside L (inside Document)');
    expect(nestingProblem('L', 'LI')).toBe('L inside LI');
    expect(nestingProblem('TOCI', undefined)).toBe('TOCI outside TOC');
  });

  it("holds a Table's children to one Caption at an end, one THead and TFoot, and rows in sections or none", () => {
    expect(tableProblems(['Caption', 'THead', 'TBody', 'TFoot'])).toEqual([]);
    expect(tableProblems(['TR', 'TR', 'Caption'])).toEqual([]);
    expect(tableProblems(['Caption', 'TBody', 'Caption'])).toEqual(['a Table with more than one Caption']);
    expect(tableProblems(['TBody', 'Caption', 'TFoot'])).toEqual(["a Caption between a Table's rows"]);
    expect(tableProblems(['THead', 'TR', 'TR'])).toEqual([
      'a Table with rows both in and outside THead, TBody or TFoot',
    ]);
  });

  it('reads the tree through its role map, and counts a second THead', () => {
    const table = (kids: string[], roleMap = '') =>
      pdf([
        `<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 3 0 R /MarkInfo << /Marked true >> >>`,
        PAGES,
        `<< /Type /StructTreeRoot /K 4 0 R ${roleMap} >>`,
        `<< /Type /StructElem /S /Table /P 3 0 R /K [${kids.map((_, i) => `${5 + i} 0 R`).join(' ')}] >>`,
        ...kids.map((type) => `<< /Type /StructElem /S /${type} /P 4 0 R >>`),
      ]);
    const problems = (bytes: Buffer) => {
      return withCos(bytes, (cos) => {
        const facts = catalogFacts(cos, bytes.subarray(0, 1024), null);
        return (facts.ua_findings ?? []).filter((f) => f.clause === '7.2').map((f) => f.message);
      });
    };
    expect(problems(table(['THead', 'TBody', 'TFoot']))).toEqual([]);
    expect(problems(table(['THead', 'THead']))).toEqual([
      'structure elements nested or laid out as ISO 32000-1 does not allow: a Table with more than one THead',
    ]);
    // a type that maps to no standard type is structure_types' matter, not this rule's
    expect(problems(table(['TBody', 'Para']))).toEqual([]);
    // a role-mapped type is judged as the standard type it maps to
    expect(problems(table(['TBody', 'Para'], '/RoleMap << /Para /P >>'))[0]).toContain('P inside Table');
    expect(problems(table(['Rows'], '/RoleMap << /Rows /TBody >>'))).toEqual([]);
  });
});

describe('unnumbered headings (ISO 14289-1 7.4.4)', () => {
  /** A structure tree Document > (Sect > kinds of the first section, Sect > kinds of the second). */
  function headings(first: string[], second: string[]): string[] {
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 3 0 R /MarkInfo << /Marked true >> >>',
      PAGES,
      '<< /Type /StructTreeRoot /K 4 0 R >>',
      '<< /Type /StructElem /S /Document /P 3 0 R /K [5 0 R 6 0 R] >>',
    ];
    const kidsAt = 7;
    const kids = [...first, ...second].map((type) => `<< /Type /StructElem /S /${type} >>`);
    const refs = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `${from + i} 0 R`).join(' ');
    objects.push(`<< /Type /StructElem /S /Sect /P 4 0 R /K [${refs(kidsAt, first.length)}] >>`);
    objects.push(
      `<< /Type /StructElem /S /Sect /P 4 0 R /K [${refs(kidsAt + first.length, second.length)}] >>`,
    );
    const bytes = pdf([...objects, ...kids]);
    return withCos(bytes, (cos) => {
      const facts = catalogFacts(cos, bytes.subarray(0, 1024), null);
      return (facts.ua_findings ?? []).filter((f) => f.clause === '7.4.4').map((f) => f.message);
    });
  }

  it('passes one H per section, and fails two in one, or H beside H1', () => {
    expect(headings(['H', 'P'], ['H', 'P'])).toEqual([]);
    expect(headings(['H1', 'P'], ['H2', 'P'])).toEqual([]);
    expect(headings(['H', 'P', 'H'], ['P'])).toEqual(['headings: an element holds more than one H']);
    expect(headings(['H', 'P'], ['H1', 'P'])).toEqual([
      'headings: the document uses both H and numbered headings (H1 to H6)',
    ]);
  });
});

describe('role maps, notes and media clips as PDF/UA-1 asks (7.1, 7.9, 7.18.6.2)', () => {
  function uaOf(objects: string[]) {
    const bytes = pdf(objects);
    return withCos(bytes, (cos) => {
      return catalogFacts(cos, bytes.subarray(0, 1024), null).ua_findings ?? [];
    });
  }
  const tree = (root: string, ...elements: string[]) => [
    '<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 3 0 R /MarkInfo << /Marked true >> >>',
    PAGES,
    root,
    ...elements,
  ];

  it('fails a role map that remaps a standard type, and passes one that maps the file own types', () => {
    expect(uaOf(tree('<< /Type /StructTreeRoot /RoleMap << /Para /P /Figure /Figure >> >>'))).toEqual([]);
    expect(uaOf(tree('<< /Type /StructTreeRoot /RoleMap << /Document /Book >> >>'))).toEqual([
      { clause: '7.1', message: 'the role map remaps the standard type Document' },
    ]);
  });

  it('asks every Note for an /ID of its own', () => {
    const notes = (first: string, second: string) =>
      uaOf(
        tree(
          '<< /Type /StructTreeRoot /K [4 0 R 5 0 R] >>',
          `<< /Type /StructElem /S /Note ${first} >>`,
          `<< /Type /StructElem /S /Note ${second} >>`,
        ),
      );
    expect(notes('/ID (n1)', '/ID (n2)')).toEqual([]);
    expect(notes('/ID (n1)', '/ID (n1)')).toEqual([
      { clause: '7.9', message: 'two Notes share the /ID "n1"' },
    ]);
    expect(notes('/ID (n1)', '')).toEqual([{ clause: '7.9', message: 'a Note without an /ID' }]);
  });

  it('asks a media clip, wherever it is written, for a content type and a description', () => {
    const clip = (entries: string) =>
      uaOf([
        CATALOG,
        PAGES,
        `<< /S /Rendition /OP 0 /R << /S /MR /C << /Type /MediaClip /S /MCD ${entries} >> >> >>`,
      ]);
    expect(clip('/CT (video/mp4) /Alt [(en) (a short film)]')).toEqual([]);
    expect(clip('/CT (video/mp4) /Alt [() ()]')).toEqual([
      { clause: '7.18.6.2', message: 'a media clip in object 3 has no alternate description (/Alt)' },
    ]);
    expect(clip('/Alt [(en) (a short film)]')).toEqual([
      { clause: '7.18.6.2', message: 'a media clip in object 3 has no content type (/CT)' },
    ]);
  });
});

describe("a table's header cells as PDF/UA-1 asks (7.5)", () => {
  const th = (scope?: string, id?: string): TableCell => ({
    role: 'TH',
    id,
    scope,
    headers: [],
    rowSpan: 1,
    colSpan: 1,
  });
  const td = (headers: string[] = [], span: Partial<TableCell> = {}): TableCell => ({
    role: 'TD',
    id: undefined,
    scope: undefined,
    headers,
    rowSpan: 1,
    colSpan: 1,
    ...span,
  });

  const headerless = (rows: TableCell[][]) => cellsWithoutHeaders(layTable(rows));

  it('passes a table whose every header cell has a scope, and one with no header cells that lack one', () => {
    expect(
      headerless([
        [th('Column'), th('Column')],
        [td(), td()],
      ]),
    ).toBe(0);
    expect(headerless([[td(), td()]])).toBe(0);
    expect(headerless([])).toBe(0);
  });

  it('counts the data cells no header reaches once a header cell lacks a scope', () => {
    // the second column's header has no scope: its data cell has no header that can be told
    expect(
      headerless([
        [th('Column'), th()],
        [td(), td()],
      ]),
    ).toBe(1);
    // a scope that is no direction reaches nothing (though a table whose every header has one passes)
    expect(
      headerless([
        [th('Column'), th(''), th()],
        [td(), td(), td()],
      ]),
    ).toBe(2);
    expect(
      headerless([
        [th('Column'), th('')],
        [td(), td()],
      ]),
    ).toBe(0);
    // a row header with scope Row (or Both) reaches the cells right of it
    expect(
      headerless([
        [th(), th()],
        [th('Row'), td()],
        [th('Both'), td()],
      ]),
    ).toBe(0);
    // past a block of headers, a data cell ends the search upwards
    expect(headerless([[th('Column')], [td()], [th()], [td()]])).toBe(1);
    // a cell spanning two columns is reached through either
    expect(headerless([[th(), th('Column')], [td([], { colSpan: 2 })]])).toBe(0);
  });

  it('lets Headers stand in for scopes only when each names the ID of a header cell', () => {
    expect(
      headerless([
        [th(undefined, 'a'), th(undefined, 'b')],
        [td(['a']), td(['b'])],
      ]),
    ).toBe(0);
    expect(
      headerless([
        [th(undefined, 'a'), th(undefined, 'b')],
        [td(['a']), td(['b', 'x'])],
      ]),
    ).toBe(1);
  });

  it('lays a table out by its spans, and says what keeps it from a regular layout (7.2)', () => {
    const irregular = (rows: TableCell[][]) => {
      const layout = layTable(rows);
      return layout && 'irregular' in layout ? layout.irregular : undefined;
    };
    expect(irregular([[th(), th()], [td([], { colSpan: 2 })], [td(), td()]])).toBeUndefined();
    expect(irregular([[th(), th()], [td([], { rowSpan: 2 }), td()], [td()]])).toBeUndefined();
    // a row without cells is no row
    expect(irregular([[th(), th()], [], [td(), td()]])).toBeUndefined();
    expect(irregular([[th(), th()], [td()]])).toBe("row 2 spans fewer columns than the first row's 2");
    expect(
      irregular([
        [th(), th()],
        [td(), td(), td()],
      ]),
    ).toBe("row 2 spans more columns than the first row's 2");
    expect(
      irregular([
        [th(), th()],
        [td([], { rowSpan: 2 }), td()],
      ]),
    ).toBe("a cell of row 2 spans rows past the table's last");
    expect(irregular([[td(), td([], { rowSpan: 2 })], [td([], { colSpan: 2 })]])).toBe(
      'two cells overlap in row 2, column 2',
    );
  });

  it('leaves a table laid out irregularly to its own rule', () => {
    expect(headerless([[th(), th()], [td()]])).toBe(0);
    expect(
      headerless([
        [th(), th()],
        [td(), td(), td()],
      ]),
    ).toBe(0);
    expect(
      headerless([
        [th(), th()],
        [td([], { rowSpan: 2 }), td()],
      ]),
    ).toBe(0);
  });

  it('reads the cells from the structure tree, attributes and classes included', () => {
    const table = (header: string, data: string) => {
      const bytes = pdf([
        '<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 3 0 R /MarkInfo << /Marked true >> >>',
        PAGES,
        '<< /Type /StructTreeRoot /K 4 0 R /ClassMap << /col << /O /Table /Scope /Column >> >> >>',
        '<< /Type /StructElem /S /Table /P 3 0 R /K [5 0 R 6 0 R] >>',
        '<< /Type /StructElem /S /TR /P 4 0 R /K 7 0 R >>',
        '<< /Type /StructElem /S /TR /P 4 0 R /K 8 0 R >>',
        `<< /Type /StructElem /S /TH /P 5 0 R ${header} >>`,
        `<< /Type /StructElem /S /TD /P 6 0 R ${data} >>`,
      ]);
      return withCos(bytes, (cos) =>
        (catalogFacts(cos, bytes.subarray(0, 1024), null).ua_findings ?? []).filter(
          (f) => f.clause === '7.5',
        ),
      );
    };
    expect(table('/A << /O /Table /Scope /Column >>', '')).toEqual([]);
    expect(table('/C /col', '')).toEqual([]);
    expect(table('/ID (h1)', '/A [<< /O /Layout >> << /O /Table /Headers [(h1)] >>]')).toEqual([]);
    expect(table('/ID (h1)', '/A << /O /Table /Headers [(12345)] >>')).toEqual([
      {
        clause: '7.5',
        message:
          'a table data cell (TD) has no header cell that can be told: neither Headers naming the IDs of header cells (TH) nor a header cell whose Scope reaches them',
      },
    ]);
  });
});
