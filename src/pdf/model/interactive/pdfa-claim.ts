import type { CosFile } from '../../cos/file.js';
import { isStream } from '../../cos/syntax.js';
import { xmpText } from '../../xmp-encoding.js';
import { propertyOf, readXmp } from '../../xmp/rdf.js';

const PDFAID = 'http://www.aiim.org/pdfa/ns/id/';
const MAX_XMP_BYTES = 4 * 1024 * 1024;

/** What a file's XMP metadata says it is: `pdfaid:part` and `pdfaid:conformance`, as written. */
export interface PdfaIdentification {
  part: string;
  conformance: string | null;
}

/**
 * The PDF/A identification of the catalog's XMP metadata (the `pdfaid` schema's part and conformance);
 * null when there is no metadata, it is not well-formed, or it has no `pdfaid:part`.
 */
export function pdfaIdentification(cos: CosFile): PdfaIdentification | null {
  const metadata = cos.get(cos.catalog, 'Metadata');
  const bytes = isStream(metadata) ? cos.streamBytes(metadata, MAX_XMP_BYTES) : undefined;
  if (!bytes) return null;
  const packet = readXmp(xmpText(bytes));
  const text = (name: string) => {
    const value = propertyOf(packet, PDFAID, name)?.value;
    return value?.kind === 'simple' && value.text.trim() !== '' ? value.text.trim() : null;
  };
  const part = text('part');
  return part === null ? null : { part, conformance: text('conformance') };
}
