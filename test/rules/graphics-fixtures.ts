/**
 * Pieces of the graphics rules' fixtures (ISO 19005 6.2 graphics, 6.4 transparency): an image or a form
 * XObject as object 8 that the page draws, a graphics state the page sets, a JPEG 2000 file's header.
 */
import { latin1, type PdfaEdits, ref, stream } from './pdfa-file.js';

/** A 1x1 RGB image XObject's body, with `entries` added. */
export const image = (entries = '', data = '\xff\x00\x00'): Uint8Array =>
  stream(
    `/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceRGB /BitsPerComponent 8 ${entries}`,
    data,
  );

/** A 1x1 grey image XObject's body (a soft mask's, an alternate's). */
export const grayImage = (entries = ''): Uint8Array =>
  stream(
    `/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 ${entries}`,
    '\x80',
  );

/** A form XObject's body that paints a blue square, with `entries` added. */
export const form = (entries = ''): Uint8Array =>
  stream(`/Type /XObject /Subtype /Form /BBox [0 0 100 100] ${entries}`, '0 0 1 rg 0 0 10 10 re f\n');

/** The page draws object 8 (an XObject) as /X0; `more` are objects 9, 10, ... */
export const drawing = (xobject: Uint8Array, more: Uint8Array[] = []): PdfaEdits => ({
  resources: `/XObject << /X0 ${ref(0)} >>`,
  content: 'q 10 0 0 10 20 20 cm /X0 Do Q\n',
  objects: [xobject, ...more],
});

/** The page sets a graphics state with `entries` (as /GS0), then paints the blue square. */
export const graphicsState = (entries: string, objects: Uint8Array[] = []): PdfaEdits => ({
  resources: `/ExtGState << /GS0 << /Type /ExtGState ${entries} >> >>`,
  content: '/GS0 gs\n0 0 1 rg\n10 10 100 100 re\nf\n',
  objects,
});

const u32 = (n: number) => String.fromCharCode((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
const box = (type: string, content: string) => u32(8 + content.length) + type + content;

/** JPEG 2000 (JP2) data: the signature, a file type, a header of `ihdr`, `bpcc` and `colr` boxes, a codestream. */
export function jp2(
  options: {
    components?: number;
    /** `ihdr` BPC: the bit depth less one, 255 for depths that differ. */
    bpc?: number;
    bpcc?: boolean;
    colr?: { method: number; approx?: number; enumCs?: number }[];
  } = {},
): Uint8Array {
  const components = options.components ?? 3;
  const bpc = options.bpc ?? 7;
  const ihdr = box(
    'ihdr',
    u32(1) + u32(1) + String.fromCharCode(components >> 8, components & 255, bpc, 7, 0, 0),
  );
  const bpcc = options.bpcc ? box('bpcc', '\x07'.repeat(components)) : '';
  const colr = (options.colr ?? [{ method: 1, enumCs: 16 }])
    .map((c) =>
      box(
        'colr',
        String.fromCharCode(c.method, 0, c.approx ?? 0) + (c.method === 1 ? u32(c.enumCs ?? 16) : ''),
      ),
    )
    .join('');
  const signature = '\x00\x00\x00\x0cjP  \x0d\x0a\x87\x0a';
  const ftyp = box('ftyp', 'jp2 ' + u32(0) + 'jp2 ');
  return latin1(signature + ftyp + box('jp2h', ihdr + bpcc + colr) + box('jp2c', '\xff\x4f\xff\xd9'));
}

/** A JPEG 2000 image XObject's body. */
export const jpxImage = (data: Uint8Array, entries = ''): Uint8Array =>
  stream(`/Type /XObject /Subtype /Image /Width 1 /Height 1 /Filter /JPXDecode ${entries}`, data);
