import { bytesOf, FIXTURE_ID, latin1, stream, type Bytes, writeFile } from './pdfa-file.js';

/**
 * Minimal PDF/UA-1 files written byte by byte, for the rules' fixture pairs: `pdfuaFile()` keeps every rule of
 * ISO 14289-1, and its edits break one rule at a time. Bytes are written as given, so that a fixture can get the
 * structure wrong on purpose.
 *
 * Objects 1 to 9 are the file's own: 1 catalog, 2 page tree, 3 page, 4 content stream, 5 XMP metadata, 6 the
 * StructTreeRoot, 7 its Document element, 8 a Figure element with alternate text holding the page's marked
 * content 0, 9 the ParentTree. Extra objects take the numbers from 10 on, in the order given (`uaRef(0)` is
 * `10 0 R`).
 */
export interface PdfuaEdits {
  /** Replaces `%PDF-1.7`, its end of line and the binary comment line. */
  header?: Bytes;
  /**
   * The catalog's PDF/UA entries, instead of the default
   * `/MarkInfo << /Marked true >> /Lang (en-US) /ViewerPreferences << /DisplayDocTitle true >> /StructTreeRoot 6 0 R`.
   */
  uaCatalog?: string;
  /** Entries added to the catalog dictionary, as written (`/AcroForm 10 0 R`). */
  catalog?: string;
  /** Entries added to the page dictionary (`/Annots [10 0 R] /Tabs /S`). */
  page?: string;
  /** The page's resource dictionary entries (inside `<< >>`). */
  resources?: string;
  /** The page's content stream data. Default: FIGURE, a blue square tagged as marked content 0. */
  content?: Bytes;
  /** The StructTreeRoot's dictionary (object 6), instead of the default. */
  root?: string;
  /** The Document element (object 7), instead of `<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R] >>`. */
  document?: string;
  /** The Figure element (object 8), instead of the default with /Alt and marked content 0 of the page. */
  figure?: string;
  /** The ParentTree (object 9), instead of `<< /Nums [0 [8 0 R]] >>`. */
  parentTree?: string;
  /** Objects 10, 11, ...: each the bytes between `N 0 obj` and `endobj` (see `stream()`). */
  objects?: Bytes[];
  /** Entries added to the trailer dictionary. */
  trailer?: string;
  /** XMP properties added inside the description. */
  xmp?: string;
  /** XMP namespaces added to the description (`xmlns:pdf="http://ns.adobe.com/pdf/1.3/"`). */
  xmpNamespaces?: string;
  /** The dc:title's x-default text (default `Fixture`); null leaves dc:title out. */
  title?: string | null;
  /** Leave the PDF/UA identification (`pdfuaid:part`) out. */
  noUaIdentification?: boolean;
  /** The whole XMP packet, instead of the default. */
  xmpPacket?: Bytes;
  /** The document information dictionary's entries; when given, an /Info is written (as the last object). */
  info?: string;
  /**
   * Encrypt the file as a writer does (the Standard security handler, revision 2, RC4 of 40 bits, the empty
   * user password and the owner password `owner`), with these permissions (/P): every string and stream of
   * every object is encrypted, the encryption dictionary is the last object.
   */
  encrypt?: { permissions: number };
  /** The last edit: the whole file's bytes, changed as a test needs (offsets are not recomputed). */
  finish?: (bytes: Uint8Array) => Uint8Array;
}

/** `N 0 R` of extra object `index` (0 is object 10). */
export const uaRef = (index: number): string => `${index + 10} 0 R`;

/** The page's default content: a blue square, tagged as the Figure's marked content 0. */
export const FIGURE = '/Figure << /MCID 0 >> BDC\n0 0 1 rg\n10 10 100 100 re\nf\nEMC\n';

/** Content marked as an artifact: a grey rule, as a page's running furniture would be. */
export const ARTIFACT = '/Artifact BMC\n0.5 g\n10 780 592 1 re\nf\nEMC\n';

export const UA_CATALOG =
  '/MarkInfo << /Marked true >> /Lang (en-US) /ViewerPreferences << /DisplayDocTitle true >> /StructTreeRoot 6 0 R';

const enc = new TextEncoder();

/** The default XMP packet: the PDF/UA identification, a title, and what `edits` add. */
export function uaXmpPacket(
  edits: Pick<PdfuaEdits, 'xmp' | 'xmpNamespaces' | 'title' | 'noUaIdentification'> = {},
): string {
  const title =
    edits.title === null
      ? ''
      : `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${edits.title ?? 'Fixture'}</rdf:li></rdf:Alt></dc:title>\n`;
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/"${edits.xmpNamespaces ? ` ${edits.xmpNamespaces}` : ''}>
${edits.noUaIdentification ? '' : '<pdfuaid:part>1</pdfuaid:part>\n'}${title}${edits.xmp ?? ''}
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/** A PDF/UA-1 file with `edits`; without edits it keeps every rule of ISO 14289-1. */
export function pdfuaFile(edits: PdfuaEdits = {}): Uint8Array {
  const header = edits.header ?? '%PDF-1.7\n%\xE2\xE3\xCF\xD3\n';
  const extras = edits.objects ?? [];
  const infoNumber = edits.info !== undefined ? 10 + extras.length : undefined;
  const packet = edits.xmpPacket ?? enc.encode(uaXmpPacket(edits));
  const bodies: Uint8Array[] = [
    latin1(
      `<< /Type /Catalog /Pages 2 0 R /Metadata 5 0 R ${edits.uaCatalog ?? UA_CATALOG}${edits.catalog ? ` ${edits.catalog}` : ''} >>`,
    ),
    latin1('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    latin1(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${edits.resources ?? ''} >> /Contents 4 0 R /StructParents 0${edits.page ? ` ${edits.page}` : ''} >>`,
    ),
    stream('', edits.content ?? FIGURE),
    stream('/Type /Metadata /Subtype /XML', packet),
    latin1(edits.root ?? '<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey 1 >>'),
    latin1(edits.document ?? '<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R] >>'),
    latin1(edits.figure ?? '<< /Type /StructElem /S /Figure /P 7 0 R /Pg 3 0 R /K 0 /Alt (A blue square) >>'),
    latin1(edits.parentTree ?? '<< /Nums [0 [8 0 R]] >>'),
    ...extras.map(bytesOf),
    ...(edits.info !== undefined ? [latin1(`<< ${edits.info} >>`)] : []),
  ];
  return writeFile(header, bodies, {
    info: infoNumber,
    encrypt: edits.encrypt,
    trailer: ` /ID ${FIXTURE_ID}${edits.trailer ? ` ${edits.trailer}` : ''}`,
    finish: edits.finish,
  });
}
