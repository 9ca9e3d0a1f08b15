import { deflateSync } from 'node:zlib';
import { type Bytes, latin1, pdfaFile, type PdfaEdits, stream } from './pdfa-file.js';

/**
 * Files for the interactive rules' fixture pairs (annotations, actions, forms, signatures, embedded files):
 * one annotation on the page, a form, a signature or an embedded file, written into `pdfaFile`.
 */

type Part = 1 | 2 | 3;

/** An appearance stream: an empty form XObject. */
export const APPEARANCE = stream('/Type /XObject /Subtype /Form /BBox [0 0 100 100]', '');

/** A printed, visible square annotation with a normal appearance stream (object 9), as written. */
export const SQUARE_ANNOTATION =
  '/Type /Annot /Subtype /Square /Rect [10 10 110 110] /F 4 /AP << /N 9 0 R >>';

/**
 * A file whose page holds one annotation (object 8, `<< entries >>`) and the appearance stream (object 9);
 * `objects` follow from object 10 on.
 */
export function withAnnotation(part: Part, entries: string, edits: PdfaEdits = {}): Uint8Array {
  return pdfaFile(part, {
    ...edits,
    page: `/Annots [8 0 R]${edits.page ? ` ${edits.page}` : ''}`,
    objects: [`<< ${entries} /P 3 0 R >>`, APPEARANCE, ...(edits.objects ?? [])],
  });
}

/** A text field merged with its widget (object 8), with an appearance (object 9), in the catalog's form. */
export const TEXT_FIELD =
  '/Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Ada) /Rect [10 10 110 30] /F 4 /AP << /N 9 0 R >>';

/** A file with one form field merged with its widget (object 8) and `form` entries added to /AcroForm. */
export function withField(part: Part, entries: string, form = '', edits: PdfaEdits = {}): Uint8Array {
  return withAnnotation(part, entries, {
    ...edits,
    catalog: `/AcroForm << /Fields [8 0 R]${form ? ` ${form}` : ''} >>${edits.catalog ? ` ${edits.catalog}` : ''}`,
  });
}

// DER, enough for a PKCS#7 SignedData
const der = (tag: number, ...content: Uint8Array[]): Uint8Array => {
  const body = concat(content);
  const length =
    body.length < 128
      ? Uint8Array.of(body.length)
      : body.length < 256
        ? Uint8Array.of(0x81, body.length)
        : Uint8Array.of(0x82, body.length >> 8, body.length & 0xff);
  return concat([Uint8Array.of(tag), length, body]);
};
const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const oid = (...bytes: number[]) => der(0x06, Uint8Array.from(bytes));
const integer = (n: number) => der(0x02, Uint8Array.of(n));
const SIGNED_DATA = oid(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02);
const DATA = oid(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01);
const SHA256 = der(0x30, oid(0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01), der(0x05));
const NAME = der(0x31, der(0x30, oid(0x55, 0x04, 0x03), der(0x0c, latin1('Fixture CA'))));
const ISSUER = der(0x30, NAME);

/** A certificate's outline: a TBSCertificate with its version, serial number, algorithm and issuer. */
const certificate = (serial: number) =>
  der(
    0x30,
    der(0x30, der(0xa0, integer(2)), integer(serial), SHA256, ISSUER),
    SHA256,
    der(0x03, Uint8Array.of(0)),
  );
const signerInfo = (serial: number) =>
  der(0x30, integer(1), der(0x30, ISSUER, integer(serial)), SHA256, SHA256, der(0x04, Uint8Array.of(1)));

/** A detached PKCS#7 SignedData with the certificates and signers asked (each a serial number). */
export function pkcs7(options: { certificates: number[]; signers: number[] }): Uint8Array {
  const certificates =
    options.certificates.length > 0 ? [der(0xa0, ...options.certificates.map(certificate))] : [];
  return der(
    0x30,
    SIGNED_DATA,
    der(
      0xa0,
      der(
        0x30,
        integer(1),
        der(0x31, SHA256),
        der(0x30, DATA),
        ...certificates,
        der(0x31, ...options.signers.map(signerInfo)),
      ),
    ),
  );
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const PLACEHOLDER = '[0 0000000000 0000000000 0000000000]';

/**
 * A signed file: a signature field (object 8, with an appearance, object 9) whose value (object 10) holds
 * `contents` as its PKCS#7 object, and a /ByteRange over the whole file but /Contents; `shortBy` bytes less.
 */
export function signedFile(part: Part, contents: Uint8Array, options: { shortBy?: number } = {}): Uint8Array {
  const padded = hex(contents).padEnd(2 * (contents.length + 64), '0');
  const signature = `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /ByteRange ${PLACEHOLDER} /Contents <${padded}> /M (D:20260101000000Z) >>`;
  return withField(
    part,
    '/Type /Annot /Subtype /Widget /FT /Sig /T (signature) /V 10 0 R /Rect [0 0 0 0] /F 4 /AP << /N 9 0 R >>',
    '/SigFlags 3',
    {
      objects: [signature],
      finish: (bytes) => {
        const text = Buffer.from(bytes).toString('latin1');
        const gapStart = text.indexOf(`/Contents <${padded.slice(0, 8)}`) + '/Contents '.length;
        const gapEnd = gapStart + padded.length + 2;
        const range = [0, gapStart, gapEnd, bytes.length - gapEnd - (options.shortBy ?? 0)];
        const written = `[${range.map((n, i) => (i === 0 ? '0' : String(n).padStart(10, '0'))).join(' ')}]`;
        const at = text.indexOf(PLACEHOLDER);
        const out = Uint8Array.from(bytes);
        out.set(latin1(written), at);
        return out;
      },
    },
  );
}

/** The entries of an embedded file's file specification, the PDF/A-3 way: names, relationship. */
export const FILE_SPEC =
  '/Type /Filespec /F (inner.pdf) /UF (inner.pdf) /AFRelationship /Source /Desc (the source)';

/**
 * A file that embeds `file` (Flate-compressed, object 9) through the file specification object 8 (`spec`'s
 * entries and its /EF), listed in the EmbeddedFiles tree and (unless `noAF`) the catalog's /AF.
 */
export function withEmbeddedFile(
  part: Part,
  file: Bytes,
  options: { spec?: string; subtype?: string | null; noAF?: boolean } = {},
): Uint8Array {
  const data = deflateSync(typeof file === 'string' ? latin1(file) : file);
  const subtype = options.subtype === null ? '' : ` /Subtype /${options.subtype ?? 'application#2Fpdf'}`;
  return pdfaFile(part, {
    catalog: `/Names << /EmbeddedFiles << /Names [(inner.pdf) 8 0 R] >> >>${options.noAF ? '' : ' /AF [8 0 R]'}`,
    objects: [
      `<< ${options.spec ?? FILE_SPEC} /EF << /F 9 0 R /UF 9 0 R >> >>`,
      stream(`/Type /EmbeddedFile${subtype} /Filter /FlateDecode /Params << /Size ${file.length} >>`, data),
    ],
  });
}
