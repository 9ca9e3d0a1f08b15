import type { Builders, ModelNode } from './kinds.js';

/**
 * A piece of text a reader speaks that is not page content (an outline item's title, an annotation's
 * /Contents, a field's /TU, an element's /Alt, /ActualText or /E, document metadata), with the language in
 * force for it.
 */
export interface NaturalLanguageTextNode extends ModelNode {
  /** Where the text comes from, in PDF terms: `Outline /Title`, `annotation /Contents`, ... */
  source: string;
  /** The language in force for it (its own, inherited, or the catalog's); undefined when none is. */
  language: string | undefined;
}

/** Natural language of text outside the page content (ISO 32000-1 14.9.2). */
export interface LanguageKinds {
  natural_language_text: NaturalLanguageTextNode;
}

export const languageBuilders: Builders = {};
