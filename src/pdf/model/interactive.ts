import { type CosFile, MAX_DECODED_BYTES } from '../cos/file.js';
import {
  isDict,
  isStream,
  latin1,
  nameOf,
  type PdfDict,
  PdfRef,
  type PdfStream,
  type PdfValue,
  textString,
} from '../cos/syntax.js';
import { fileObjects, nameTreeValues, treeNodes } from './interactive/trees.js';
import {
  boxOf,
  disjoint,
  type EnclosingElement,
  enclosingElements,
  hasText,
  visibleBox,
} from './interactive/annotation-structure.js';
import { type FormElementNode, formElements } from './interactive/form-elements.js';
import { renditionMediaClips } from './interactive/media-clips.js';
import { pkcs7Summary, type Pkcs7Summary } from './interactive/pkcs7.js';
import type { Builders, Emitter, ModelNode } from './node.js';
import { pageEntries } from './pages.js';

export type { FormElementNode };

/** The document catalog's interactive entries. */
export interface DocumentNode extends ModelNode {
  /** The name dictionary (/Names) has an /EmbeddedFiles tree. */
  embeddedFilesTree: boolean;
  /** The name dictionary has an /AlternatePresentations tree. */
  alternatePresentations: boolean;
  /** The catalog has /OCProperties. */
  optionalContent: boolean;
  /** The catalog has an additional-actions dictionary (/AA). */
  additionalActions: boolean;
  /** /NeedsRendering: its boolean value, `'not a boolean'` for any other value, null when absent. */
  needsRendering: boolean | 'not a boolean' | null;
  /** The catalog has /Requirements: an array of requirement dictionaries, or one (any other value is none). */
  requirements: boolean;
}

/** A page's interactive entries. */
export interface PageNode extends ModelNode {
  pageNumber: number;
  additionalActions: boolean;
  /** The page has a /PresSteps (a presentation's navigation node). */
  presSteps: boolean;
  /** How many annotation dictionaries its /Annots holds. */
  annotationCount: number;
  /** /Tabs, the annotations' tab order, as a name; null when absent (or not a name). */
  tabs: string | null;
}

/** An annotation dictionary of a page's /Annots. */
export interface AnnotationNode extends ModelNode {
  pageNumber: number;
  /** /Subtype, or null when it is not a name. */
  subtype: string | null;
  /** /F, or null when absent (or not a number). */
  flags: number | null;
  /** /CA, or null when absent (or not a number). */
  opacity: number | null;
  /** The /C array is there (an array: any other value is no colour). */
  color: boolean;
  /** The /IC array is there. */
  interiorColor: boolean;
  /** The appearance dictionary's keys (/AP), sorted; null without one. */
  appearanceKeys: string[] | null;
  /** What /AP /N is: a stream, a subdictionary of states, something else; null when absent. */
  normalAppearance: 'stream' | 'dictionary' | 'other' | null;
  /** How many of the normal appearance subdictionary's states are streams. */
  normalAppearanceStates: number;
  /** A widget's field type (/FT), on the widget or inherited from its field; null when none. */
  fieldType: string | null;
  /** The /Rect's width and height (absolute); null when the rectangle is not four numbers. */
  width: number | null;
  height: number | null;
  /** The annotation has an action (/A). */
  action: boolean;
  /** The annotation has an additional-actions dictionary (/AA). */
  additionalActions: boolean;
  /**
   * The colour space of the PDF/A output intent's profile (`/S /GTS_PDFA1`, its header bytes 16-19, trimmed:
   * `RGB`, `CMYK`, `GRAY`); null when there is no such output intent or its profile is unreadable.
   */
  outputProfileColorSpace: string | null;
  /** /Contents is a text string that is not empty. */
  hasContents: boolean;
  /** /StructParent, when an integer; null otherwise. */
  structParent: number | null;
  /**
   * The /Rect shares no area with the page's visible region (its crop box within its media box); false when
   * either is unreadable.
   */
  outsideCropBox: boolean;
  /** A widget's /TU, on the widget or the nearest field above it, is a text string that is not empty. */
  fieldHasTU: boolean;
  /**
   * The structure elements that hold it: the parent tree's entry for /StructParent, and the element whose
   * object reference names it (read on demand: the structure tree is read only when a rule asks).
   */
  readonly enclosingElements: readonly EnclosingElement[];
}

/** An action dictionary, reachable from the catalog, a page, an annotation, a field, an outline or a script. */
export interface ActionNode extends ModelNode {
  /** /S, or null when absent. */
  type: string | null;
  /** A named action's /N, or null. */
  named: string | null;
}

/** A field dictionary of the interactive form's field tree (terminal or not). */
export interface FormFieldNode extends ModelNode {
  action: boolean;
  additionalActions: boolean;
}

/** The interactive form dictionary (/AcroForm). */
export interface AcroFormNode extends ModelNode {
  /** /NeedAppearances: its boolean value, `'not a boolean'` for any other value, null when absent. */
  needAppearances: boolean | 'not a boolean' | null;
  /** The /XFA key is there. */
  xfa: boolean;
}

/** A signature dictionary, the value of a signature field (/FT /Sig). */
export interface SignatureNode extends ModelNode {
  subFilter: string | null;
  /** /ByteRange as written, when all numbers; null otherwise. */
  byteRange: number[] | null;
  fileSize: number;
  /** The bytes at the first and last offset of the gap the byte range leaves (ByteRange[1], ByteRange[2] - 1). */
  gapFirstByte: number | null;
  gapLastByte: number | null;
  /** Up to 16 bytes of the file before the covered end (ByteRange[2] + ByteRange[3]), as Latin-1. */
  beforeCoveredEnd: string | null;
  /** The PKCS#7 object of /Contents, for a PKCS#7 SubFilter (read on demand); undefined when unreadable. */
  readonly pkcs7: Pkcs7Summary | undefined;
}

/** The permissions dictionary (/Perms). */
export interface PermsNode extends ModelNode {
  keys: string[];
}

/** A signature reference dictionary (an element of a signature's /Reference). */
export interface SignatureReferenceNode extends ModelNode {
  keys: string[];
  /** The catalog's permissions dictionary holds /DocMDP. */
  permsHaveDocMDP: boolean;
}

/** A file specification dictionary: of the EmbeddedFiles tree, a file attachment, or an AF array. */
export interface FileSpecificationNode extends ModelNode {
  /** The /EF key is there. */
  embeddedFile: boolean;
  /** /F and /UF are there as strings (a file specification string; any other value names no file). */
  hasF: boolean;
  hasUF: boolean;
  /** /AFRelationship, or null when absent (or not a name). */
  afRelationship: string | null;
  /** Some AF array of the file names it. */
  associated: boolean;
}

/** An embedded file stream (a value of a file specification's /EF). */
export interface EmbeddedFileNode extends ModelNode {
  /** The stream's /Subtype (its MIME type), or null when absent (or not a name). */
  subtype: string | null;
  /**
   * The file's bytes, decoded (read on demand); undefined when a filter cannot be decoded or the file would
   * decode to more than MAX_DECODED_BYTES.
   */
  readonly bytes: Uint8Array | undefined;
}

/** An optional content configuration dictionary: /OCProperties /D, or one of /Configs. */
export interface OcConfigNode extends ModelNode {
  /** /Name as text (perhaps empty), or null when absent (or not a string). */
  name: string | null;
  /** Another configuration has the same /Name. */
  nameDuplicated: boolean;
  /** The /AS key is there. */
  hasAS: boolean;
  /** How many groups of /OCProperties /OCGs its /Order array leaves out; null without an /Order. */
  groupsMissingFromOrder: number | null;
}

/** A media clip data dictionary (/S /MCD, ISO 32000-1 13.2.4.2), of a rendition a Rendition action plays. */
export interface MediaClipNode extends ModelNode {
  /** /CT, the content type, is written. */
  hasContentType: boolean;
  /** /Alt is written. */
  hasAlt: boolean;
  /**
   * /Alt is a multi-language text array (ISO 32000-1 14.9.2.2): pairs of strings, a language then a text,
   * each text not empty.
   */
  altIsLanguageTextPairs: boolean;
}

/** The interactive kinds of the model. */
export interface InteractiveKinds {
  document: DocumentNode;
  page: PageNode;
  annotation: AnnotationNode;
  action: ActionNode;
  form_field: FormFieldNode;
  acroform: AcroFormNode;
  signature: SignatureNode;
  perms: PermsNode;
  signature_reference: SignatureReferenceNode;
  file_specification: FileSpecificationNode;
  embedded_file: EmbeddedFileNode;
  oc_config: OcConfigNode;
  form_element: FormElementNode;
  media_clip: MediaClipNode;
}

const MAX_ANNOTATIONS = 10_000;
const MAX_FIELDS = 50_000;
const MAX_ACTIONS = 100_000;
const MAX_OUTLINE_ITEMS = 100_000;
const MAX_CONFIGS = 1_000;
const MAX_ORDER_NODES = 100_000;
const MAX_PROFILE_BYTES = 16 * 1024 * 1024;
/** Signature types whose /Contents is a PKCS#7 (CMS) SignedData (ISO 32000-1 12.8.3.3, ISO 32000-2 12.8.3.4). */
const PKCS7_SUBFILTERS = new Set(['adbe.pkcs7.detached', 'adbe.pkcs7.sha1', 'ETSI.CAdES.detached']);

const objectName = (raw: PdfValue | undefined) => (raw instanceof PdfRef ? ` (object ${raw.num})` : '');
/** `key` is written with a value: an entry whose value is null is no entry (ISO 32000-1, 7.3.7). */
const present = (cos: CosFile, dict: PdfDict | undefined, key: string): boolean => {
  const value = cos.get(dict, key);
  return value !== undefined && value !== null;
};
const numberOrNull = (value: PdfValue | undefined) => (typeof value === 'number' ? value : null);
/** A flag as written: its boolean value, `'not a boolean'` for any other value, null when absent. */
const flagOf = (value: PdfValue | undefined) =>
  value === undefined || value === null
    ? null
    : typeof value === 'boolean'
      ? value
      : ('not a boolean' as const);

function documentNode(cos: CosFile, catalog: PdfDict): DocumentNode {
  const names = cos.dict(catalog, 'Names');
  const requirements = cos.get(catalog, 'Requirements');
  return {
    where: 'the document catalog',
    embeddedFilesTree: present(cos, names, 'EmbeddedFiles'),
    alternatePresentations: present(cos, names, 'AlternatePresentations'),
    optionalContent: present(cos, catalog, 'OCProperties'),
    additionalActions: present(cos, catalog, 'AA'),
    needsRendering: flagOf(cos.get(catalog, 'NeedsRendering')),
    requirements: isDict(requirements) || Array.isArray(requirements),
  };
}

const profileSpaces = new WeakMap<CosFile, string | null>();

/** The colour space of the PDF/A output intent's ICC profile, read once per file. */
function outputProfileColorSpace(cos: CosFile): string | null {
  if (profileSpaces.has(cos)) return profileSpaces.get(cos)!;
  let space: string | null = null;
  for (const entry of cos.array(cos.catalog, 'OutputIntents')) {
    const intent = cos.resolve(entry);
    if (!isDict(intent) || nameOf(cos.get(intent, 'S')) !== 'GTS_PDFA1') continue;
    const profile = cos.get(intent, 'DestOutputProfile');
    const bytes = isStream(profile) ? cos.streamBytes(profile, MAX_PROFILE_BYTES) : undefined;
    if (bytes && bytes.length >= 128 && latin1(bytes, 36, 40) === 'acsp')
      space = latin1(bytes, 16, 20).trim();
    break;
  }
  profileSpaces.set(cos, space);
  return space;
}

/** A field attribute as written on a widget or the nearest field above it (/Parent). */
function inheritedField(cos: CosFile, dict: PdfDict, key: string): PdfValue | undefined {
  let node: PdfDict | undefined = dict;
  for (let depth = 0; node && depth < 32; depth++, node = cos.dict(node, 'Parent')) {
    const value = cos.get(node, key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A widget's field has a description (/TU): on the widget (a field and its widget merged) or a field above. */
function fieldDescribed(cos: CosFile, widget: PdfDict): boolean {
  let node: PdfDict | undefined = widget;
  for (let depth = 0; node && depth < 32; depth++, node = cos.dict(node, 'Parent'))
    if (hasText(cos, cos.get(node, 'TU'))) return true;
  return false;
}

function annotationNode(
  cos: CosFile,
  raw: PdfValue,
  dict: PdfDict,
  pageNumber: number,
  visible: number[] | undefined,
): AnnotationNode {
  const subtype = nameOf(cos.get(dict, 'Subtype')) ?? null;
  const box = boxOf(cos, dict.get('Rect'));
  const structParent = cos.get(dict, 'StructParent');
  let holders: readonly EnclosingElement[] | undefined;
  const appearance = cos.dict(dict, 'AP');
  const normal = cos.get(appearance, 'N');
  const rect = cos.array(dict, 'Rect').map((v) => cos.resolve(v));
  const corners = rect.length === 4 && rect.every((v): v is number => typeof v === 'number') ? rect : null;
  const states = isDict(normal) ? [...normal.values()].filter((v) => isStream(cos.resolve(v))).length : 0;
  return {
    where: `${subtype ?? 'an'} annotation on page ${pageNumber}${objectName(raw)}`,
    pageNumber,
    subtype,
    flags: numberOrNull(cos.get(dict, 'F')),
    opacity: numberOrNull(cos.get(dict, 'CA')),
    color: Array.isArray(cos.get(dict, 'C')),
    interiorColor: Array.isArray(cos.get(dict, 'IC')),
    appearanceKeys: appearance
      ? [...appearance.keys()].filter((k) => present(cos, appearance, k)).sort()
      : null,
    normalAppearance:
      normal === undefined ? null : isStream(normal) ? 'stream' : isDict(normal) ? 'dictionary' : 'other',
    normalAppearanceStates: states,
    fieldType: subtype === 'Widget' ? (nameOf(inheritedField(cos, dict, 'FT')) ?? null) : null,
    width: corners ? Math.abs(corners[2]! - corners[0]!) : null,
    height: corners ? Math.abs(corners[3]! - corners[1]!) : null,
    action: present(cos, dict, 'A'),
    additionalActions: present(cos, dict, 'AA'),
    outputProfileColorSpace: outputProfileColorSpace(cos),
    hasContents: hasText(cos, cos.get(dict, 'Contents')),
    structParent: typeof structParent === 'number' && Number.isInteger(structParent) ? structParent : null,
    outsideCropBox: box !== undefined && visible !== undefined && disjoint(box, visible),
    fieldHasTU: subtype === 'Widget' && fieldDescribed(cos, dict),
    get enclosingElements() {
      holders ??= enclosingElements(cos, raw, dict);
      return holders;
    },
  };
}

function emitAnnotations(
  cos: CosFile,
  page: PdfDict,
  pageNumber: number,
  out: Emitter<InteractiveKinds>,
): void {
  const annots = cos.array(page, 'Annots');
  const visible = annots.length > 0 ? visibleBox(cos, page) : undefined;
  for (const raw of annots.slice(0, MAX_ANNOTATIONS)) {
    const dict = cos.resolve(raw);
    if (isDict(dict)) out.emit('annotation', annotationNode(cos, raw, dict, pageNumber, visible));
  }
}

/** The media clip data of the rendition a Rendition action plays. */
function emitMediaClips(
  cos: CosFile,
  action: PdfDict,
  actionWhere: string,
  out: Emitter<InteractiveKinds>,
): void {
  for (const { raw, dict } of renditionMediaClips(cos, action.get('R'))) {
    const alt = cos.get(dict, 'Alt');
    out.emit('media_clip', {
      where: `the media clip${objectName(raw)} of the ${actionWhere}`,
      hasContentType: present(cos, dict, 'CT'),
      hasAlt: alt !== undefined && alt !== null,
      altIsLanguageTextPairs:
        Array.isArray(alt) &&
        alt.length % 2 === 0 &&
        alt.every((entry, i) => {
          const value = cos.resolve(entry);
          return value instanceof Uint8Array && (i % 2 === 0 || hasText(cos, value));
        }),
    });
  }
}

/** Every action a viewer could run, each once: what holds it, and its /Next chain. */
function emitActions(
  cos: CosFile,
  catalog: PdfDict,
  fields: PdfDict[],
  out: Emitter<InteractiveKinds>,
): void {
  const seen = new Set<number>();
  const seenDirect = new Set<PdfDict>();
  let count = 0;
  const visit = (raw: PdfValue | undefined, holder: string): void => {
    const stack: PdfValue[] = raw === undefined ? [] : [raw];
    while (stack.length > 0 && count < MAX_ACTIONS) {
      const next = stack.pop()!;
      if (next instanceof PdfRef) {
        if (seen.has(next.num)) continue;
        seen.add(next.num);
      }
      const action = cos.resolve(next);
      if (Array.isArray(action)) {
        // a /Next array of actions, read in order
        stack.push(...[...action].reverse());
        continue;
      }
      if (!isDict(action) || seenDirect.has(action)) continue;
      seenDirect.add(action);
      count++;
      const type = nameOf(cos.get(action, 'S')) ?? null;
      const where = `${type ?? 'an'} action of ${holder}${objectName(next)}`;
      if (out.wants('action'))
        out.emit('action', {
          where,
          type,
          named: type === 'Named' ? (nameOf(cos.get(action, 'N')) ?? null) : null,
        });
      if (type === 'Rendition' && out.wants('media_clip')) emitMediaClips(cos, action, where, out);
      const following = action.get('Next');
      if (following !== undefined) stack.push(following);
    }
  };
  const visitHolder = (dict: PdfDict, holder: string) => {
    visit(dict.get('A'), holder);
    const additional = cos.dict(dict, 'AA');
    for (const value of additional?.values() ?? []) visit(value, `${holder}'s additional actions`);
  };
  const openAction = cos.get(catalog, 'OpenAction');
  if (isDict(openAction)) visit(catalog.get('OpenAction'), 'the catalog (OpenAction)');
  visitHolder(catalog, 'the catalog');
  for (const page of pageEntries(cos)) {
    visitHolder(page.dict, `page ${page.pageNumber}`);
    for (const raw of cos.array(page.dict, 'Annots').slice(0, MAX_ANNOTATIONS)) {
      const annotation = cos.resolve(raw);
      if (isDict(annotation))
        visitHolder(annotation, `an annotation on page ${page.pageNumber}${objectName(raw)}`);
    }
  }
  for (const field of fields) visitHolder(field, 'a form field');
  const outlines = cos.dict(catalog, 'Outlines');
  let items = 0;
  const outlineStack: PdfValue[] = outlines?.get('First') !== undefined ? [outlines.get('First')!] : [];
  const seenItems = new Set<number>();
  while (outlineStack.length > 0 && items++ < MAX_OUTLINE_ITEMS) {
    const raw = outlineStack.pop()!;
    if (raw instanceof PdfRef) {
      if (seenItems.has(raw.num)) continue;
      seenItems.add(raw.num);
    }
    const item = cos.resolve(raw);
    if (!isDict(item)) continue;
    visit(item.get('A'), `an outline item${objectName(raw)}`);
    for (const key of ['Next', 'First']) if (item.get(key) !== undefined) outlineStack.push(item.get(key)!);
  }
  for (const script of nameTreeValues(cos, cos.dict(cos.dict(catalog, 'Names'), 'JavaScript')))
    visit(script, 'the document scripts (/Names /JavaScript)');
}

function emitForm(cos: CosFile, catalog: PdfDict, fields: PdfDict[], out: Emitter<InteractiveKinds>): void {
  const form = cos.dict(catalog, 'AcroForm');
  if (!form) return;
  if (out.wants('acroform')) {
    out.emit('acroform', {
      where: 'the interactive form (/AcroForm)',
      needAppearances: flagOf(cos.get(form, 'NeedAppearances')),
      xfa: present(cos, form, 'XFA'),
    });
  }
  if (out.wants('form_field'))
    for (const field of fields) {
      // a kid without a name of its own is one of its field's widgets, not a field
      if (!field.has('T') && nameOf(cos.get(field, 'Subtype')) === 'Widget') continue;
      const name = textString(cos.get(field, 'T'));
      out.emit('form_field', {
        where: name !== undefined && !cos.ciphertext ? `form field "${name.slice(0, 80)}"` : 'a form field',
        action: present(cos, field, 'A'),
        additionalActions: present(cos, field, 'AA'),
      });
    }
}

function signatureNode(cos: CosFile, raw: PdfValue | undefined, dict: PdfDict): SignatureNode {
  const range = cos.array(dict, 'ByteRange').map((v) => cos.resolve(v));
  const byteRange = range.length > 0 && range.every((v): v is number => typeof v === 'number') ? range : null;
  const byteAt = (offset: number | undefined) =>
    offset === undefined || offset < 0 || offset >= cos.size ? null : (cos.read(offset, 1)[0] ?? null);
  const coveredEnd = byteRange && byteRange.length === 4 ? byteRange[2]! + byteRange[3]! : undefined;
  const before =
    coveredEnd !== undefined && coveredEnd > 0 && coveredEnd <= cos.size
      ? cos.read(Math.max(0, coveredEnd - 16), Math.min(16, coveredEnd))
      : undefined;
  const subFilter = nameOf(cos.get(dict, 'SubFilter')) ?? null;
  let summary: { value: Pkcs7Summary | undefined } | undefined;
  return {
    where: `the signature${objectName(raw)}`,
    subFilter,
    byteRange,
    fileSize: cos.size,
    gapFirstByte: byteRange && byteRange.length === 4 ? byteAt(byteRange[1]) : null,
    gapLastByte: byteRange && byteRange.length === 4 ? byteAt(byteRange[2]! - 1) : null,
    beforeCoveredEnd: before ? latin1(before, 0, before.length) : null,
    get pkcs7() {
      if (summary) return summary.value;
      const contents = cos.get(dict, 'Contents');
      const readable =
        subFilter !== null && PKCS7_SUBFILTERS.has(subFilter) && contents instanceof Uint8Array;
      summary = { value: readable && !cos.ciphertext ? pkcs7Summary(contents) : undefined };
      return summary.value;
    },
  };
}

/** The signature dictionaries of the signature fields, and of the permissions dictionary, each once. */
function emitSignatures(
  cos: CosFile,
  catalog: PdfDict,
  fields: PdfDict[],
  out: Emitter<InteractiveKinds>,
): void {
  const perms = cos.dict(catalog, 'Perms');
  if (perms && out.wants('perms'))
    out.emit('perms', { where: 'the permissions dictionary (/Perms)', keys: [...perms.keys()].sort() });
  const seen = new Set<PdfDict>();
  const signatures: [PdfValue | undefined, PdfDict][] = [];
  for (const field of fields) {
    if (nameOf(inheritedField(cos, field, 'FT')) !== 'Sig') continue;
    const value = cos.get(field, 'V');
    if (isDict(value) && !seen.has(value)) {
      seen.add(value);
      signatures.push([field.get('V'), value]);
    }
  }
  if (out.wants('signature'))
    for (const [raw, dict] of signatures) out.emit('signature', signatureNode(cos, raw, dict));
  if (!out.wants('signature_reference')) return;
  for (const key of perms?.keys() ?? []) {
    const value = cos.get(perms, key);
    if (isDict(value) && !seen.has(value)) {
      seen.add(value);
      signatures.push([perms!.get(key), value]);
    }
  }
  const permsHaveDocMDP = perms?.has('DocMDP') ?? false;
  for (const [raw, dict] of signatures)
    for (const reference of cos.array(dict, 'Reference')) {
      const referenceDict = cos.resolve(reference);
      if (isDict(referenceDict))
        out.emit('signature_reference', {
          where: `a signature reference of the signature${objectName(raw)}`,
          keys: [...referenceDict.keys()].sort(),
          permsHaveDocMDP,
        });
    }
}

/** The file specifications of the EmbeddedFiles tree, the file attachments and the catalog's and pages' AF. */
function emitFiles(cos: CosFile, catalog: PdfDict, out: Emitter<InteractiveKinds>): void {
  const found: { raw: PdfValue; dict: PdfDict; fromAF: boolean }[] = [];
  const seen = new Set<PdfDict>();
  const add = (raw: PdfValue | undefined, fromAF: boolean, direct?: PdfDict) => {
    const dict = direct ?? cos.resolve(raw);
    if (raw === undefined || !isDict(dict) || seen.has(dict)) return;
    seen.add(dict);
    found.push({ raw, dict, fromAF });
  };
  const addAF = (holder: PdfDict) => {
    const af = cos.get(holder, 'AF');
    for (const entry of Array.isArray(af) ? af : af === undefined ? [] : [af]) add(entry, true);
  };
  addAF(catalog);
  for (const value of nameTreeValues(cos, cos.dict(cos.dict(catalog, 'Names'), 'EmbeddedFiles')))
    add(value, false);
  for (const page of pageEntries(cos)) {
    addAF(page.dict);
    for (const raw of cos.array(page.dict, 'Annots').slice(0, MAX_ANNOTATIONS)) {
      const annotation = cos.resolve(raw);
      if (!isDict(annotation)) continue;
      addAF(annotation);
      if (nameOf(cos.get(annotation, 'Subtype')) === 'FileAttachment') add(annotation.get('FS'), false);
    }
  }
  // and those anywhere else: in actions, XObjects, structure elements, ...
  const scanned = fileObjects(cos);
  for (const { raw, dict } of scanned.fileSpecifications) add(raw, false, dict);
  const streams = new Set<PdfValue>();
  for (const { raw, dict, fromAF } of found) {
    const label = textString(cos.get(dict, 'UF')) ?? textString(cos.get(dict, 'F'));
    const named = label !== undefined && !cos.ciphertext ? ` "${label.slice(0, 80)}"` : '';
    const where = `the file specification${named}${objectName(raw)}`;
    if (out.wants('file_specification')) {
      out.emit('file_specification', {
        where,
        embeddedFile: present(cos, dict, 'EF'),
        hasF: cos.get(dict, 'F') instanceof Uint8Array,
        hasUF: cos.get(dict, 'UF') instanceof Uint8Array,
        afRelationship: nameOf(cos.get(dict, 'AFRelationship')) ?? null,
        associated:
          fromAF ||
          (raw instanceof PdfRef && scanned.associatedNumbers.has(raw.num)) ||
          scanned.associatedDicts.has(dict),
      });
    }
    if (!out.wants('embedded_file')) continue;
    const ef = cos.dict(dict, 'EF');
    for (const key of ['UF', 'F', 'DOS', 'Mac', 'Unix']) {
      const value = ef?.get(key);
      const file = cos.resolve(value);
      if (!isStream(file) || streams.has(file)) continue;
      streams.add(file);
      out.emit('embedded_file', embeddedFileNode(cos, value!, file, named));
    }
  }
}

function embeddedFileNode(
  cos: CosFile,
  raw: PdfValue,
  file: { stream: PdfStream },
  named: string,
): EmbeddedFileNode {
  let decoded: { bytes: Uint8Array | undefined } | undefined;
  return {
    where: `the embedded file${named}${objectName(raw)}`,
    subtype: nameOf(cos.get(file.stream.dict, 'Subtype')) ?? null,
    get bytes() {
      decoded ??= { bytes: cos.ciphertext ? undefined : cos.streamBytes(file, MAX_DECODED_BYTES) };
      return decoded.bytes;
    },
  };
}

/** The optional content groups an /Order array names, through its nested arrays. */
function orderedGroups(cos: CosFile, order: PdfValue[]): Set<number> {
  const groups = new Set<number>();
  const stack = [...order];
  for (let visited = 0; stack.length > 0 && visited < MAX_ORDER_NODES; visited++) {
    const item = stack.pop()!;
    if (item instanceof PdfRef) {
      const value = cos.resolve(item);
      if (Array.isArray(value)) stack.push(...value);
      else groups.add(item.num);
    } else if (Array.isArray(item)) stack.push(...item);
  }
  return groups;
}

function emitOptionalContent(cos: CosFile, catalog: PdfDict, out: Emitter<InteractiveKinds>): void {
  const properties = cos.dict(catalog, 'OCProperties');
  if (!properties) return;
  const configs: [string, PdfDict][] = [];
  const defaults = cos.dict(properties, 'D');
  if (defaults) configs.push(['the default optional content configuration (/D)', defaults]);
  cos
    .array(properties, 'Configs')
    .slice(0, MAX_CONFIGS)
    .forEach((raw, i) => {
      const config = cos.resolve(raw);
      // a configuration listed twice (or /D listed again in /Configs) is one dictionary, read once
      if (isDict(config) && !configs.some(([, known]) => known === config))
        configs.push([`optional content configuration ${i + 1} of /Configs`, config]);
    });
  const names = configs.map(([, config]) => textString(cos.get(config, 'Name')) ?? null);
  const groups = cos.array(properties, 'OCGs').flatMap((g) => (g instanceof PdfRef ? [g.num] : []));
  configs.forEach(([where, config], i) => {
    const order = cos.get(config, 'Order');
    const listed = Array.isArray(order) ? orderedGroups(cos, order) : undefined;
    const name = names[i]!;
    out.emit('oc_config', {
      where,
      name,
      nameDuplicated: name !== null && names.some((other, j) => j !== i && other === name),
      hasAS: present(cos, config, 'AS'),
      groupsMissingFromOrder: listed ? groups.filter((g) => !listed.has(g)).length : null,
    });
  });
}

const FIELD_KINDS = [
  'form_field',
  'action',
  'media_clip',
  'signature',
  'signature_reference',
  'perms',
] as const;

export const interactiveBuilders: Builders<InteractiveKinds> = {
  document: ({ cos }, out) => {
    const catalog = cos.catalog;
    if (!catalog) return;
    if (out.wants('document')) out.emit('document', documentNode(cos, catalog));
    const needsFields = FIELD_KINDS.some((kind) => out.wants(kind)) || out.wants('acroform');
    const fields = needsFields
      ? treeNodes(cos, cos.array(cos.dict(catalog, 'AcroForm'), 'Fields'), MAX_FIELDS)
      : [];
    if (out.wants('acroform') || out.wants('form_field')) emitForm(cos, catalog, fields, out);
    if (out.wants('signature') || out.wants('signature_reference') || out.wants('perms'))
      emitSignatures(cos, catalog, fields, out);
    if (out.wants('action') || out.wants('media_clip')) emitActions(cos, catalog, fields, out);
    if (out.wants('form_element')) for (const node of formElements(cos)) out.emit('form_element', node);
    if (out.wants('file_specification') || out.wants('embedded_file')) emitFiles(cos, catalog, out);
    if (out.wants('oc_config')) emitOptionalContent(cos, catalog, out);
  },
  page: ({ cos, page, pageNumber }, out) => {
    if (out.wants('page'))
      out.emit('page', {
        where: `page ${pageNumber}`,
        pageNumber,
        additionalActions: present(cos, page, 'AA'),
        presSteps: present(cos, page, 'PresSteps'),
        annotationCount: cos
          .array(page, 'Annots')
          .slice(0, MAX_ANNOTATIONS)
          .filter((a) => isDict(cos.resolve(a))).length,
        tabs: nameOf(cos.get(page, 'Tabs')) ?? null,
      });
    if (out.wants('annotation')) emitAnnotations(cos, page, pageNumber, out);
  },
};
