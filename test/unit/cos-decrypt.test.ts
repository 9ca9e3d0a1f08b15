import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rc4, standardDecryptor } from '../../src/pdf/cos/decrypt.js';
import { CosFile } from '../../src/pdf/cos/file.js';
import { isStream, Lexer, type PdfDict, PdfRef, textString } from '../../src/pdf/cos/syntax.js';
import { catalogFacts } from '../../src/pdf/structure.js';
import { pdfPath } from '../helpers/files.js';

/**
 * The object reader on encrypted files (ISO 32000-1 7.6, ISO 32000-2 7.6.4 for R6), opened with the empty user
 * password as PDFium opens them: strings and streams read as in the unencrypted original, objects in encrypted
 * object streams resolve, and a file that needs a password stays as it is stored.
 *
 * Fixtures (test/fixtures/pdfs/encrypted/): `plain.pdf` is hand-written (a catalog with /Lang, XMP metadata, an
 * outline, a structure element with a hex /Alt, an Info /Title, one content stream); the others were made
 * from it once with qpdf 11.3.0 (`--static-id --static-aes-iv` keep them reproducible), in that folder:
 *   Q="qpdf --static-id --static-aes-iv"
 *   $Q --allow-weak-crypto --encrypt "" owner 40 -- plain.pdf r2-rc4-40.pdf
 *   $Q --allow-weak-crypto --encrypt "" owner 128 --use-aes=n -- plain.pdf r3-rc4-128.pdf
 *   $Q --allow-weak-crypto --encrypt "" owner 128 --use-aes=n --force-V4 -- plain.pdf r4-rc4-crypt-filter.pdf
 *   $Q --encrypt "" owner 128 --use-aes=y -- plain.pdf r4-aes-128.pdf
 *   $Q --encrypt "" owner 128 --use-aes=y --cleartext-metadata -- plain.pdf r4-aes-128-cleartext-metadata.pdf
 *   $Q --allow-weak-crypto --encrypt "" owner 256 --force-R5 -- plain.pdf r5-aes-256.pdf
 *   $Q --encrypt "" owner 256 -- plain.pdf r6-aes-256.pdf
 *   $Q --object-streams=generate --encrypt "" owner 256 -- plain.pdf r6-aes-256-object-streams.pdf
 *   $Q --object-streams=generate --encrypt "" owner 128 --use-aes=y -- plain.pdf r4-aes-128-object-streams.pdf
 *   $Q --encrypt user owner 256 -- plain.pdf r6-user-password.pdf
 * Tests never call qpdf.
 */

const fixture = (name: string) => readFileSync(pdfPath(`encrypted/${name}`));
const open = (bytes: Uint8Array) => new CosFile(bytes, bytes.length);

/** What the rules read of the sample: its strings and its streams' decoded data. */
function sample(cos: CosFile) {
  const catalog = cos.catalog;
  const outline = cos.dict(cos.dict(catalog, 'Outlines'), 'First');
  const element = cos.dict(cos.dict(catalog, 'StructTreeRoot'), 'K');
  const firstPage = cos.resolve(cos.array(cos.dict(catalog, 'Pages'), 'Kids')[0]) as PdfDict | undefined;
  const contents = cos.get(firstPage, 'Contents');
  const metadata = cos.get(catalog, 'Metadata');
  const text = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('latin1') : undefined);
  return {
    lang: textString(cos.get(catalog, 'Lang')),
    infoTitle: textString(cos.get(cos.dict(cos.trailer, 'Info'), 'Title')),
    outlineTitle: textString(cos.get(outline, 'Title')),
    alt: textString(cos.get(element, 'Alt')),
    elementLang: textString(cos.get(element, 'Lang')),
    content: text(isStream(contents) ? cos.streamBytes(contents) : undefined),
    xmp: text(isStream(metadata) ? cos.streamBytes(metadata) : undefined),
  };
}

const ENCRYPTED = [
  'r2-rc4-40.pdf',
  'r3-rc4-128.pdf',
  'r4-rc4-crypt-filter.pdf',
  'r4-aes-128.pdf',
  'r4-aes-128-cleartext-metadata.pdf',
  'r5-aes-256.pdf',
  'r6-aes-256.pdf',
  'r6-aes-256-object-streams.pdf',
  'r4-aes-128-object-streams.pdf',
];

describe('decryption with the empty user password', () => {
  const original = sample(open(fixture('plain.pdf')));

  it('the unencrypted original reads as written (the yardstick of the others)', () => {
    expect(original).toMatchObject({
      lang: 'en-GB',
      infoTitle: 'Encrypted sample',
      outlineTitle: 'Chapter (one)',
      alt: 'Hello',
      elementLang: 'en-GB',
    });
    expect(original.content).toContain('(Hello, encrypted world) Tj');
    expect(original.xmp).toContain('<rdf:li xml:lang="x-default">Encrypted sample</rdf:li>');
  });

  it.each(ENCRYPTED)('%s: strings and streams read as in the original', (name) => {
    const cos = open(fixture(name));
    expect(cos.encrypted).toBe(true);
    expect(cos.decrypted).toBe(true);
    expect(sample(cos)).toEqual(original);
  });

  it.each(ENCRYPTED)('%s: the /Encrypt dictionary and the /ID are read as stored', (name) => {
    const cos = open(fixture(name));
    const encrypt = cos.dict(cos.trailer, 'Encrypt');
    const revision = cos.get(encrypt, 'R');
    // decrypting them would change their length (AES) or their bytes; 7.6.1 leaves them in the clear
    const expected = revision === 5 || revision === 6 ? 48 : 32;
    expect((cos.get(encrypt, 'U') as Uint8Array).length).toBe(expected);
    expect((cos.get(encrypt, 'O') as Uint8Array).length).toBe(expected);
    const raw = Buffer.from(fixture(name)).toString('latin1');
    const u = Buffer.from(cos.get(encrypt, 'U') as Uint8Array).toString('hex');
    expect(raw).toContain(`/U <${u}>`);
    const id = cos.array(cos.trailer, 'ID')[0] as Uint8Array;
    expect(Buffer.from(id).toString('hex')).toBe('0123456789abcdef0123456789abcdef');
  });

  it.each(['r6-aes-256-object-streams.pdf', 'r4-aes-128-object-streams.pdf'])(
    '%s: objects inside the encrypted object stream resolve',
    (name) => {
      const cos = open(fixture(name));
      const compressed = [...cos.listed()].filter(([, entry]) => 'container' in entry);
      // the outline, the structure element and the page are among them (qpdf's object stream)
      expect(compressed.length).toBeGreaterThanOrEqual(5);
      for (const [num] of compressed) expect(cos.object(num)).toBeDefined();
      const facts = catalogFacts(cos, cos.read(0, 1024), null);
      expect(facts).toMatchObject({ tagged: true, display_doc_title: true, xmp_title: 'Encrypted sample' });
    },
  );

  it('cleartext metadata: the XMP is stored in the clear, the rest encrypted, all read as the original', () => {
    const bytes = fixture('r4-aes-128-cleartext-metadata.pdf');
    expect(Buffer.from(bytes).toString('latin1')).toContain('Encrypted sample</rdf:li>');
    expect(Buffer.from(fixture('r4-aes-128.pdf')).toString('latin1')).not.toContain('Encrypted sample');
    expect(sample(open(bytes))).toEqual(original);
  });

  it('a file that needs a user password stays as stored: encrypted, not decrypted, strings ciphertext', () => {
    const cos = open(fixture('r6-user-password.pdf'));
    expect(cos.encrypted).toBe(true);
    expect(cos.decrypted).toBe(false);
    const read = sample(cos);
    expect(read.lang).not.toBe('en-GB');
    expect(read.content ?? '').not.toContain('Hello');
    // the same file with the empty password opens (the one tested above)
    expect(open(fixture('r6-aes-256.pdf')).decrypted).toBe(true);
  });

  it('RC4 is the cipher of its published test vector', () => {
    const out = rc4(Buffer.from('Key'), Buffer.from('Plaintext'));
    expect(Buffer.from(out).toString('hex')).toBe('bbf316e8d940af0ad3');
  });
});

/** r4-aes-128.pdf's /Encrypt dictionary and /ID, written into hand-made files: the same file key. */
function aesEncryption() {
  const raw = Buffer.from(fixture('r4-aes-128.pdf')).toString('latin1');
  const encrypt = /\d+ 0 obj\n(<< \/CF .*? \/V 4 >>)\nendobj/.exec(raw)![1]!;
  const id = /\/ID (\[<[0-9a-f]+><[0-9a-f]+>\])/.exec(raw)![1]!;
  return { encrypt, id };
}

/**
 * A PDF of `objects` (bodies of objects 1..n, of generation `gens[i]` or 0) with a classic xref; `trailer`: the
 * trailer's extra entries.
 */
function handMade(objects: string[], trailer: string, gens: number[] = []): Uint8Array {
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} ${gens[i] ?? 0} obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  offsets.forEach((offset, i) => {
    out += `${String(offset).padStart(10, '0')} ${String(gens[i] ?? 0).padStart(5, '0')} n \n`;
  });
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

describe('decryption on what hand-made files throw at it', () => {
  it("strings nested anywhere decrypt with their object's number and generation; a signature's /Contents is stored", () => {
    // RC4 is its own inverse: r3-rc4-128.pdf's decryptor also encrypts, strings written here for object 3 gen 2
    const raw = Buffer.from(fixture('r3-rc4-128.pdf')).toString('latin1');
    const encrypt = /\d+ 0 obj\n(<< \/Filter \/Standard .*?>>)\nendobj/.exec(raw)![1]!;
    const id = /\/ID (\[<[0-9a-f]+><[0-9a-f]+>\])/.exec(raw)![1]!;
    const idBytes = Buffer.from(/\/ID \[<([0-9a-f]+)>/.exec(raw)![1]!, 'hex');
    const dict = new Lexer(Buffer.from(encrypt, 'latin1')).value() as PdfDict;
    const rc4File = standardDecryptor(dict, idBytes)!;
    const hex = (text: string, num = 3, gen = 2) =>
      `<${Buffer.from(rc4File.string(Buffer.from(text, 'latin1'), num, gen)).toString('hex')}>`;
    const cos = open(
      handMade(
        [
          `<< /Type /Catalog /Pages 2 0 R /Lang ${hex('de', 1, 0)} /Sig 3 2 R >>`,
          '<< /Type /Pages /Kids [] /Count 0 >>',
          `<< /Type /Sig /Contents <30820101> /Name ${hex('Signer')} /Reference [<< /Data [${hex('nested')}] >>] >>`,
          encrypt,
        ],
        `/Encrypt 4 0 R /ID ${id}`,
        [0, 0, 2, 0],
      ),
    );
    expect(cos.decrypted).toBe(true);
    expect(textString(cos.get(cos.catalog, 'Lang'))).toBe('de');
    const signature = cos.dict(cos.catalog, 'Sig');
    expect(Buffer.from(cos.get(signature, 'Contents') as Uint8Array).toString('hex')).toBe('30820101');
    expect(textString(cos.get(signature, 'Name'))).toBe('Signer');
    const reference = cos.resolve(cos.array(signature, 'Reference')[0]) as PdfDict;
    expect(textString(cos.array(reference, 'Data')[0])).toBe('nested');
  });

  it('a stream whose /Crypt filter is /Identity is read as stored', () => {
    const { encrypt, id } = aesEncryption();
    const data = 'BT (in the clear) Tj ET';
    const cos = open(
      handMade(
        [
          '<< /Type /Catalog /Pages 2 0 R >>',
          '<< /Type /Pages /Kids [] /Count 0 >>',
          `<< /Length ${data.length} /Filter [/Crypt] /DecodeParms [<< /Name /Identity >>] >>\nstream\n${data}\nendstream`,
          `<< /Length ${data.length} /Filter /Crypt >>\nstream\n${data}\nendstream`,
          encrypt,
        ],
        `/Encrypt 5 0 R /ID ${id}`,
      ),
    );
    expect(cos.decrypted).toBe(true);
    for (const num of [3, 4]) {
      const stream = cos.object(num);
      expect(isStream(stream) && Buffer.from(cos.streamBytes(stream)!).toString('latin1')).toBe(data);
    }
  });

  it.each([
    ['no /U', (e: string) => e.replace(/\/U <[0-9a-f]+>/, '')],
    ['a short /U', (e: string) => e.replace(/\/U <([0-9a-f]{8})[0-9a-f]+>/, '/U <$1>')],
    ['an unknown crypt method', (e: string) => e.replace('/AESV2', '/AESV9')],
    ['a 40-bit key for AES', (e: string) => e.replace('/Length 128', '/Length 40')],
    ['a key length that is no whole byte', (e: string) => e.replace('/Length 128', '/Length 127')],
    ['another handler', (e: string) => e.replace('/Standard', '/Adobe.PubSec')],
    ['R 6 with 32-byte /U and no /UE', (e: string) => e.replace('/R 4', '/R 6').replace('/V 4', '/V 5')],
    ['a /P that is no number', (e: string) => e.replace('/P -4', '/P (x)')],
    ['not a dictionary', () => '[1 2 3]'],
  ])('a malformed /Encrypt (%s) leaves the file as stored, never throws', (_, spoil) => {
    const { encrypt, id } = aesEncryption();
    const cos = open(
      handMade(
        [
          '<< /Type /Catalog /Pages 2 0 R /Lang (xx) >>',
          '<< /Type /Pages /Kids [] /Count 0 >>',
          spoil(encrypt),
        ],
        `/Encrypt 3 0 R /ID ${id}`,
      ),
    );
    expect(cos.encrypted).toBe(true);
    expect(cos.decrypted).toBe(false);
    expect(textString(cos.get(cos.catalog, 'Lang'))).toBe('xx');
  });

  it('an /Encrypt that refers to itself, or to nothing, reads as stored', () => {
    for (const trailer of ['/Encrypt 3 0 R', '/Encrypt 9 0 R', '/Encrypt 3 0 R /ID [1 2]']) {
      const cos = open(
        handMade(
          ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>', '3 0 R'],
          trailer,
        ),
      );
      expect(cos.decrypted).toBe(false);
      expect(cos.catalog).toBeDefined();
      expect(cos.trailer.get('Encrypt')).toBeInstanceOf(PdfRef);
    }
  });
});
