/**
 * The catalog's entries ISO 14289-1 speaks of (MarkInfo, ViewerPreferences, StructTreeRoot), the encryption
 * dictionary's permissions, the XFA form's config, and the file specifications of embedded files: what a
 * PDF/UA rule reads of the document beyond its structure and content.
 */
import type { CosFile } from '../../cos/file.js';
import { isDict, isStream, latin1, nameOf, type PdfDict, PdfRef, type PdfValue } from '../../cos/syntax.js';
import { nameTreeValues } from '../interactive/trees.js';
import type { Emitter, ModelNode, PageSource } from '../node.js';

/** A boolean entry: its value, `'not a boolean'` for any other value, null when absent. */
export type BooleanEntry = boolean | 'not a boolean' | null;

/** The document catalog's tagging and viewer entries. */
export interface CatalogNode extends ModelNode {
  /** /MarkInfo is a dictionary. */
  markInfo: boolean;
  /** /MarkInfo /Marked. */
  marked: BooleanEntry;
  /** /MarkInfo /Suspects. */
  suspects: BooleanEntry;
  /** /ViewerPreferences /DisplayDocTitle. */
  displayDocTitle: BooleanEntry;
  /** /StructTreeRoot is a dictionary. */
  structTreeRoot: boolean;
}

/** The encryption dictionary (the trailer's /Encrypt). */
export interface EncryptionNode extends ModelNode {
  /** /Filter, or null when absent (or not a name). */
  filter: string | null;
  /** /P, the user access permission flags (ISO 32000-1, Table 22), as an integer; null when absent or no number. */
  permissions: number | null;
}

/** The XFA form of the interactive form dictionary (/AcroForm /XFA). */
export interface XfaFormNode extends ModelNode {
  /** The config packet was found and its bytes read. */
  configRead: boolean;
  /** The text of the config's `dynamicRender` element (acrobat / acrobat7), trimmed; null when there is none. */
  dynamicRender: string | null;
}

/** A file specification dictionary with an /EF (embedded file) entry. */
export interface EmbeddedFileSpecificationNode extends ModelNode {
  /** The length in bytes of /F, when it is a string; null when absent or not a string. */
  fBytes: number | null;
  /** The same of /UF. */
  ufBytes: number | null;
}

export interface CatalogKinds {
  catalog: CatalogNode;
  encryption: EncryptionNode;
  xfa_form: XfaFormNode;
  embedded_file_specification: EmbeddedFileSpecificationNode;
}

/** The most annotations of one page looked through for file attachments. */
const MAX_ANNOTATIONS = 10_000;
/** The most bytes of an XFA form decoded to find its config. */
const MAX_XFA_BYTES = 16 * 1024 * 1024;

function booleanEntry(value: PdfValue | undefined): BooleanEntry {
  if (value === undefined || value === null) return null;
  return typeof value === 'boolean' ? value : 'not a boolean';
}

function catalogNode(cos: CosFile, catalog: PdfDict): CatalogNode {
  const markInfo = cos.dict(catalog, 'MarkInfo');
  return {
    where: 'the catalog',
    markInfo: markInfo !== undefined,
    marked: booleanEntry(cos.get(markInfo, 'Marked')),
    suspects: booleanEntry(cos.get(markInfo, 'Suspects')),
    displayDocTitle: booleanEntry(cos.get(cos.dict(catalog, 'ViewerPreferences'), 'DisplayDocTitle')),
    structTreeRoot: cos.dict(catalog, 'StructTreeRoot') !== undefined,
  };
}

function encryptionNode(cos: CosFile): EncryptionNode | undefined {
  const encrypt = cos.dict(cos.trailer, 'Encrypt');
  if (!encrypt) return undefined;
  const p = cos.get(encrypt, 'P');
  return {
    where: 'the encryption dictionary',
    filter: nameOf(cos.get(encrypt, 'Filter')) ?? null,
    permissions: typeof p === 'number' && Number.isFinite(p) ? Math.trunc(p) : null,
  };
}

const DYNAMIC_RENDER = /<(?:[\w.-]+:)?dynamicRender\b[^>]*>([^<]*)<\//;

/**
 * The config packet's text: in an array, the stream after the name `config`; in one stream (the whole XDP),
 * the `<config …>` element of it. Undefined when it cannot be read.
 */
function configText(cos: CosFile, xfa: PdfValue | undefined): string | undefined {
  const text = (value: PdfValue | undefined) => {
    const stream = cos.resolve(value);
    const bytes = isStream(stream) ? cos.streamBytes(stream, MAX_XFA_BYTES) : undefined;
    return bytes ? latin1(bytes, 0, bytes.length) : undefined;
  };
  if (Array.isArray(xfa)) {
    for (let i = 0; i + 1 < xfa.length; i += 2) {
      const name = cos.resolve(xfa[i]);
      if (name instanceof Uint8Array && latin1(name, 0, name.length) === 'config') return text(xfa[i + 1]);
    }
    return undefined;
  }
  const whole = text(xfa);
  if (whole === undefined) return undefined;
  const start = whole.search(/<(?:[\w.-]+:)?config[\s>]/);
  if (start < 0) return undefined;
  const rest = whole.slice(start);
  const end = rest.search(/<\/(?:[\w.-]+:)?config>/);
  return end < 0 ? rest : rest.slice(0, end);
}

function xfaFormNode(cos: CosFile, catalog: PdfDict): XfaFormNode | undefined {
  const form = cos.dict(catalog, 'AcroForm');
  const xfa = cos.get(form, 'XFA');
  if (xfa === undefined || xfa === null) return undefined;
  const config = configText(cos, xfa);
  const value = config === undefined ? undefined : DYNAMIC_RENDER.exec(config)?.[1];
  return {
    where: 'the XFA form (/AcroForm /XFA)',
    configRead: config !== undefined,
    dynamicRender: value === undefined ? null : value.trim(),
  };
}

const stringBytes = (value: PdfValue | undefined): number | null =>
  value instanceof Uint8Array ? value.length : null;

/** Emits each file specification of `raws` that has an /EF, once per object (`seen`). */
function emitSpecifications(
  cos: CosFile,
  raws: PdfValue[],
  where: string,
  seen: Set<number>,
  out: Emitter<CatalogKinds>,
): void {
  for (const raw of raws) {
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) continue;
      seen.add(raw.num);
    }
    const dict = cos.resolve(raw);
    if (!isDict(dict) || cos.get(dict, 'EF') === undefined) continue;
    out.emit('embedded_file_specification', {
      where: `${where}${raw instanceof PdfRef ? `, object ${raw.num}` : ''}`,
      fBytes: stringBytes(cos.get(dict, 'F')),
      ufBytes: stringBytes(cos.get(dict, 'UF')),
    });
  }
}

const associated = (cos: CosFile, dict: PdfDict | undefined): PdfValue[] => {
  const af = cos.get(dict, 'AF');
  return Array.isArray(af) ? af : af === undefined ? [] : [af];
};

/** The catalog's kinds: read once per file, from the catalog, the trailer and what they name. */
export function emitCatalogKinds(cos: CosFile, out: Emitter<CatalogKinds>): void {
  const catalog = cos.catalog;
  if (catalog && out.wants('catalog')) out.emit('catalog', catalogNode(cos, catalog));
  if (out.wants('encryption')) {
    const node = encryptionNode(cos);
    if (node) out.emit('encryption', node);
  }
  if (!catalog) return;
  if (out.wants('xfa_form')) {
    const node = xfaFormNode(cos, catalog);
    if (node) out.emit('xfa_form', node);
  }
  if (out.wants('embedded_file_specification')) {
    const seen = new Set<number>();
    const tree = cos.dict(cos.dict(catalog, 'Names'), 'EmbeddedFiles');
    emitSpecifications(cos, nameTreeValues(cos, tree), 'a file of the EmbeddedFiles tree', seen, out);
    emitSpecifications(cos, associated(cos, catalog), "a file of the catalog's /AF", seen, out);
  }
}

/** A page's embedded file specifications: its file attachment annotations' and its /AF's. */
export function emitPageFileSpecifications(
  { cos, page, pageNumber }: PageSource,
  out: Emitter<CatalogKinds>,
): void {
  if (!out.wants('embedded_file_specification')) return;
  const seen = new Set<number>();
  const attachments: PdfValue[] = [];
  for (const raw of cos.array(page, 'Annots').slice(0, MAX_ANNOTATIONS)) {
    const annotation = cos.resolve(raw);
    const fs = isDict(annotation) ? annotation.get('FS') : undefined;
    if (fs !== undefined && nameOf(cos.get(annotation as PdfDict, 'Subtype')) === 'FileAttachment')
      attachments.push(fs);
  }
  emitSpecifications(cos, attachments, `a file attachment on page ${pageNumber}`, seen, out);
  emitSpecifications(cos, associated(cos, page), `a file of page ${pageNumber}'s /AF`, seen, out);
}
