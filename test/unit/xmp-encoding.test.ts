import { describe, expect, it } from 'vitest';
import { xmpEncoding, xmpText } from '../../src/pdf/xmp-encoding.js';

const PACKET =
  '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>';

function encode(text: string, encoding: string, bom: boolean): Uint8Array {
  const body = bom ? `\ufeff${text}` : text;
  const units = [...body].map((c) => c.codePointAt(0)!);
  if (encoding === 'utf-8') return new TextEncoder().encode(body);
  const size = encoding.startsWith('utf-32') ? 4 : 2;
  const bytes = new Uint8Array(units.length * size);
  const view = new DataView(bytes.buffer);
  units.forEach((code, i) =>
    size === 4
      ? view.setUint32(i * 4, code, encoding.endsWith('le'))
      : view.setUint16(i * 2, code, encoding.endsWith('le')),
  );
  return bytes;
}

describe('an XMP packet', () => {
  it.each(['utf-8', 'utf-16le', 'utf-16be', 'utf-32le', 'utf-32be'])(
    'in %s, with or without a byte order mark, reads as the same text',
    (encoding) => {
      for (const bom of [false, true]) {
        const bytes = encode(PACKET, encoding, bom);
        expect(xmpEncoding(bytes)).toBe(encoding);
        expect(xmpText(bytes)).toBe(PACKET);
      }
    },
  );
});
