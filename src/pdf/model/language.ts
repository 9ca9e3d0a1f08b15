import type { CosFile } from '../cos/file.js';
import { isDict, isStream, type PdfDict, PdfRef, type PdfValue, textString } from '../cos/syntax.js';
import { readXmp } from '../xmp/rdf.js';
import { xmpText } from '../xmp-encoding.js';
import type { Builders, Emitter, ModelNode } from './node.js';
import {
  catalogLanguage,
  elementLanguage,
  type LanguageInForce,
  type LanguageSource,
  textLanguage,
} from './language/in-force.js';
import { pageEntries } from './pages.js';
import { elementWhere, type StructElement, type StructTree, structureTree } from './structure/tree.js';
import { structParentHolder } from './tagged-content/holders.js';

export type { LanguageSource } from './language/in-force.js';

/** Where a piece of text a reader speaks, outside the page content, is written. */
export type NaturalTextSource =
  | 'outline item /Title'
  | 'element /ActualText'
  | 'element /Alt'
  | 'element /E'
  | 'annotation /Contents'
  | 'field /TU'
  /** an XMP language alternative whose only item is `x-default` (no language of its own) */
  | 'metadata x-default';

/**
 * A piece of text a reader speaks that is not page content (an outline item's title, an annotation's
 * /Contents, a field's /TU, an element's /Alt, /ActualText or /E, document metadata), not empty, with the
 * language in force for it.
 */
export interface NaturalLanguageTextNode extends ModelNode {
  source: NaturalTextSource;
  /**
   * The language in force for it: a language escape in the text itself, the /Lang of the element that
   * holds it (for an element's own text, the element) or of an ancestor, or the catalog's; undefined when
   * none is.
   */
  language: string | undefined;
  languageFrom: LanguageSource | undefined;
}

/** A /Lang entry as written: the catalog's, a structure element's, or a marked-content property list's. */
export interface LangEntryNode extends ModelNode {
  /** The text string's value. */
  value: string;
  /** False in an encrypted file that could not be decrypted: the value is not the text. */
  readable: boolean;
  of: 'catalog' | 'structure element' | 'marked content';
}

/** Natural language (ISO 32000-1 14.9.2) of text outside the page content, and every /Lang written. */
export interface LanguageKinds {
  natural_language_text: NaturalLanguageTextNode;
  lang_entry: LangEntryNode;
}

const MAX_OUTLINE_ITEMS = 100_000;
const MAX_ANNOTATIONS_PER_PAGE = 10_000;
const MAX_FIELD_NODES = 50_000;
const MAX_XMP_BYTES = 4 * 1024 * 1024;

/** A text string with something in it to speak; undefined when absent, not a string, or empty. */
const spoken = (value: PdfValue | undefined): string | undefined => {
  const text = textString(value);
  return text === undefined || text === '' ? undefined : text;
};

class LanguageReader {
  private readonly tree: StructTree;
  private readonly catalog: LanguageInForce;

  constructor(
    private readonly cos: CosFile,
    private readonly out: Emitter<LanguageKinds>,
  ) {
    this.tree = structureTree(cos);
    this.catalog = catalogLanguage(cos);
  }

  private text(where: string, source: NaturalTextSource, language: LanguageInForce): void {
    this.out.emit('natural_language_text', {
      where,
      source,
      language: language.language,
      languageFrom: language.from,
    });
  }

  /** The language of what `holder` holds, else the catalog's. */
  private heldBy(holder: StructElement | true | undefined): LanguageInForce {
    if (holder === undefined || holder === true) return this.catalog;
    const found = elementLanguage(holder);
    return found.language !== undefined ? found : this.catalog;
  }

  /** The element holding an annotation or a field's widget: by an object reference, or its /StructParent. */
  private holderOf(raw: PdfValue | undefined, dict: PdfDict): StructElement | true | undefined {
    const byReference = raw instanceof PdfRef ? this.tree.holderOfObject(raw.num) : undefined;
    return byReference ?? structParentHolder(this.cos, this.tree, dict.get('StructParent'));
  }

  langEntries(): void {
    const lang = textString(this.cos.get(this.cos.catalog, 'Lang'));
    const readable = !this.cos.ciphertext;
    if (lang !== undefined)
      this.out.emit('lang_entry', { where: "the catalog's /Lang", value: lang, readable, of: 'catalog' });
    for (const element of this.tree.elements)
      if (element.lang !== undefined)
        this.out.emit('lang_entry', {
          where: `${elementWhere(element)}, /Lang`,
          value: element.lang,
          readable,
          of: 'structure element',
        });
  }

  elementTexts(): void {
    const keys = [
      ['ActualText', 'element /ActualText'],
      ['Alt', 'element /Alt'],
      ['E', 'element /E'],
    ] as const;
    for (const element of this.tree.elements)
      for (const [key, source] of keys) {
        const text = spoken(this.cos.get(element.dict, key));
        if (text === undefined) continue;
        const language = textLanguage(text, () => this.heldBy(element));
        this.text(`${elementWhere(element)}, /${key}`, source, language);
      }
  }

  outlineTitles(): void {
    const outlines = this.cos.dict(this.cos.catalog, 'Outlines');
    const seen = new Set<number>();
    const stack: PdfValue[] = [];
    if (outlines?.get('First') !== undefined) stack.push(outlines.get('First')!);
    let count = 0;
    while (stack.length > 0 && count < MAX_OUTLINE_ITEMS) {
      const raw = stack.pop()!;
      if (raw instanceof PdfRef) {
        if (seen.has(raw.num)) continue;
        seen.add(raw.num);
      }
      const item = this.cos.resolve(raw);
      if (!isDict(item)) continue;
      count++;
      const title = spoken(this.cos.get(item, 'Title'));
      if (title !== undefined)
        this.text(
          `outline item ${raw instanceof PdfRef ? `(object ${raw.num})` : count} "${title.slice(0, 40)}"`,
          'outline item /Title',
          textLanguage(title, () => this.catalog),
        );
      // the next sibling is read after this item's children
      const next = item.get('Next');
      const first = item.get('First');
      if (next !== undefined) stack.push(next);
      if (first !== undefined) stack.push(first);
    }
  }

  annotationContents(): void {
    for (const page of pageEntries(this.cos)) {
      const annotations = this.cos.array(page.dict, 'Annots').slice(0, MAX_ANNOTATIONS_PER_PAGE);
      for (const [index, raw] of annotations.entries()) {
        const annotation = this.cos.resolve(raw);
        if (!isDict(annotation)) continue;
        const contents = spoken(this.cos.get(annotation, 'Contents'));
        if (contents === undefined) continue;
        const name = raw instanceof PdfRef ? `annotation ${raw.num}` : `annotation ${index + 1} of /Annots`;
        this.text(
          `${name} on page ${page.pageNumber}, /Contents`,
          'annotation /Contents',
          textLanguage(contents, () => this.heldBy(this.holderOf(raw, annotation))),
        );
      }
    }
  }

  /** Every field's /TU; its language is that of the element holding the field or one of its widgets. */
  fieldDescriptions(): void {
    const form = this.cos.dict(this.cos.catalog, 'AcroForm');
    const stack = [...this.cos.array(form, 'Fields')].reverse();
    const seen = new Set<number>();
    let count = 0;
    while (stack.length > 0 && count < MAX_FIELD_NODES) {
      const raw = stack.pop()!;
      if (raw instanceof PdfRef) {
        if (seen.has(raw.num)) continue;
        seen.add(raw.num);
      }
      const field = this.cos.resolve(raw);
      if (!isDict(field)) continue;
      count++;
      const kids = this.cos.array(field, 'Kids');
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
      const tu = spoken(this.cos.get(field, 'TU'));
      if (tu === undefined) continue;
      const language = textLanguage(tu, () => {
        let holder = this.holderOf(raw, field);
        for (const kid of kids) {
          if (holder !== undefined && holder !== true && elementLanguage(holder).language !== undefined)
            break;
          const widget = this.cos.resolve(kid);
          if (isDict(widget)) holder = this.holderOf(kid, widget) ?? holder;
        }
        return this.heldBy(holder);
      });
      const name = textString(this.cos.get(field, 'T'));
      this.text(
        `field ${name !== undefined ? `"${name}"` : ''}${raw instanceof PdfRef ? ` (object ${raw.num})` : ''}, /TU`,
        'field /TU',
        language,
      );
    }
  }

  /** The catalog's XMP language alternatives that name no language (only `x-default`). */
  metadataDefaults(): void {
    const metadata = this.cos.get(this.cos.catalog, 'Metadata');
    if (!isStream(metadata)) return;
    const bytes = this.cos.streamBytes(metadata, MAX_XMP_BYTES);
    if (!bytes) return;
    const packet = readXmp(xmpText(bytes));
    for (const property of packet.properties) {
      const value = property.value;
      if (value.kind !== 'array' || value.form !== 'Alt' || value.items.length === 0) continue;
      const onlyDefault = value.items.every(
        (item) => item.kind === 'simple' && item.lang?.toLowerCase() === 'x-default',
      );
      if (onlyDefault)
        this.text(
          `the catalog's XMP metadata, ${property.prefix}:${property.name}`,
          'metadata x-default',
          this.catalog,
        );
    }
  }
}

export const languageBuilders: Builders<LanguageKinds> = {
  document: ({ cos }, out) => {
    const texts = out.wants('natural_language_text');
    const langs = out.wants('lang_entry');
    if (!texts && !langs) return;
    const reader = new LanguageReader(cos, out);
    if (langs) reader.langEntries();
    if (!texts) return;
    reader.elementTexts();
    reader.outlineTitles();
    reader.annotationContents();
    reader.fieldDescriptions();
    reader.metadataDefaults();
  },
};
