/**
 * What a JPEG 2000 file's header says (ISO 15444-1 Annex I): the JP2 signature, then the boxes of its header
 * box (`jp2h`): the image header (`ihdr`: components and bit depth), a bits-per-component box (`bpcc`) and
 * its colour specifications (`colr`: method, approximation, enumerated colour space). Only the header is
 * read; the codestream is never decoded.
 */
export interface Jpeg2000Header {
  /** The data begins with the JP2 signature box; when false, nothing else here was read. */
  signature: boolean;
  /** `ihdr` NC: the number of components; undefined without an image header. */
  components: number | undefined;
  /** `ihdr` BPC plus one (bits of each component); undefined when BPC is 255 (components differ) or absent. */
  bitDepth: number | undefined;
  /** `ihdr` BPC is 255: each component's depth is in a `bpcc` box. */
  bitDepthVaries: boolean;
  /** A `bpcc` box is in the header. */
  bitsPerComponentBox: boolean;
  /** Each `colr` box, in order. */
  colourSpecifications: ColourSpecification[];
}

export interface ColourSpecification {
  /** METH: 1 enumerated, 2 restricted ICC, 3 any ICC, 4 vendor (ISO 15444-2). */
  method: number;
  /** APPROX. */
  approximation: number;
  /** EnumCS when METH is 1 (16 sRGB, 17 greyscale, 19 CIEJab, ...). */
  enumeratedSpace: number | undefined;
}

const SIGNATURE = [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a];
/** The most boxes read at one level: a header holds a handful. */
const MAX_BOXES = 256;

const u32 = (b: Uint8Array, at: number) =>
  at + 4 <= b.length ? ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]! : -1;
const type = (b: Uint8Array, at: number) => String.fromCharCode(...b.subarray(at, at + 4));

interface Box {
  type: string;
  /** Where its content starts and ends. */
  start: number;
  end: number;
}

/** The boxes from `start` to `end`; a box that runs past the bytes ends the list at the bytes' end. */
function boxes(b: Uint8Array, start: number, end: number): Box[] {
  const out: Box[] = [];
  let at = start;
  while (at + 8 <= end && out.length < MAX_BOXES) {
    let length = u32(b, at);
    let header = 8;
    if (length === 1) {
      // an extended length: the high word must be zero in anything this reads
      if (u32(b, at + 8) !== 0) break;
      length = u32(b, at + 12);
      header = 16;
    } else if (length === 0) length = end - at;
    if (length < header) break;
    out.push({ type: type(b, at + 4), start: at + header, end: Math.min(end, at + length) });
    at += length;
  }
  return out;
}

/** The header of JPEG 2000 data, from its first bytes (the header box is near the start). */
export function jpeg2000Header(bytes: Uint8Array): Jpeg2000Header {
  const header: Jpeg2000Header = {
    signature: SIGNATURE.every((byte, i) => bytes[i] === byte),
    components: undefined,
    bitDepth: undefined,
    bitDepthVaries: false,
    bitsPerComponentBox: false,
    colourSpecifications: [],
  };
  if (!header.signature) return header;
  const jp2h = boxes(bytes, SIGNATURE.length, bytes.length).find((box) => box.type === 'jp2h');
  if (!jp2h) return header;
  for (const box of boxes(bytes, jp2h.start, jp2h.end)) {
    if (box.type === 'ihdr' && box.end - box.start >= 14) {
      header.components = (bytes[box.start + 8]! << 8) + bytes[box.start + 9]!;
      const bpc = bytes[box.start + 10]!;
      header.bitDepthVaries = bpc === 0xff;
      // the low seven bits are the depth less one; the high bit says the samples are signed
      header.bitDepth = bpc === 0xff ? undefined : (bpc & 0x7f) + 1;
    } else if (box.type === 'bpcc') header.bitsPerComponentBox = true;
    else if (box.type === 'colr' && box.end - box.start >= 3) {
      const method = bytes[box.start]!;
      header.colourSpecifications.push({
        method,
        approximation: bytes[box.start + 2]!,
        enumeratedSpace: method === 1 && box.end - box.start >= 7 ? u32(bytes, box.start + 3) : undefined,
      });
    }
  }
  return header;
}
