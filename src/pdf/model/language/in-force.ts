import type { CosFile } from '../../cos/file.js';
import { textString } from '../../cos/syntax.js';
import type { StructElement } from '../structure/tree.js';

/** Where the language in force for a piece of text comes from (ISO 32000-1 14.9.2). */
export type LanguageSource =
  /** a language escape in the text string itself (ISO 32000-1 7.9.2.2) */
  | 'text'
  /** the /Lang of the marked-content sequence it is in, or of one around it */
  | 'marked content'
  /** the /Lang of the structure element that holds it */
  | 'element'
  /** the /Lang of an ancestor of that element */
  | 'ancestor'
  /** the catalog's /Lang */
  | 'catalog';

/** The language in force and where it comes from; both undefined when none is. */
export interface LanguageInForce {
  language: string | undefined;
  from: LanguageSource | undefined;
}

export const NO_LANGUAGE: LanguageInForce = Object.freeze({ language: undefined, from: undefined });

/**
 * The language an element declares for what it holds: its own /Lang or its nearest ancestor's. A /Lang
 * written as an empty string counts: ISO 32000-1 14.9.2.1 makes it a declaration that the language is
 * unknown, which is the author's statement, not an omission.
 */
export function elementLanguage(element: StructElement | undefined): LanguageInForce {
  for (let e = element; e; e = e.parent)
    if (e.lang !== undefined) return { language: e.lang, from: e === element ? 'element' : 'ancestor' };
  return NO_LANGUAGE;
}

/** The catalog's /Lang as a text string (an empty one included), read once per file. */
const catalogLanguages = new WeakMap<CosFile, LanguageInForce>();

export function catalogLanguage(cos: CosFile): LanguageInForce {
  let found = catalogLanguages.get(cos);
  if (!found) {
    const lang = textString(cos.get(cos.catalog, 'Lang'));
    found = lang === undefined ? NO_LANGUAGE : { language: lang, from: 'catalog' };
    catalogLanguages.set(cos, found);
  }
  return found;
}

/**
 * The language a UTF-16 text string names for itself with an escape (ISO 32000-1 7.9.2.2): U+001B, a
 * two-byte ISO 639 language code, optionally a two-byte ISO 3166 country code, U+001B. As `textString`
 * decodes UTF-16BE, each pair of code bytes is one character here. Undefined when the text has none.
 */
export function languageEscape(text: string): string | undefined {
  const start = text.indexOf('\u001b');
  if (start === -1) return undefined;
  const end = text.indexOf('\u001b', start + 1);
  if (end !== start + 2 && end !== start + 3) return undefined;
  const bytes = (c: number) => String.fromCharCode(c >> 8, c & 0xff);
  const language = bytes(text.charCodeAt(start + 1));
  if (!/^[a-z]{2}$/i.test(language)) return undefined;
  if (end === start + 2) return language;
  const country = bytes(text.charCodeAt(start + 2));
  return /^[a-z]{2}$/i.test(country) ? `${language}-${country}` : undefined;
}

/** `text`'s own language escape as the language in force, else `otherwise()`. */
export function textLanguage(text: string, otherwise: () => LanguageInForce): LanguageInForce {
  const own = languageEscape(text);
  return own !== undefined ? { language: own, from: 'text' } : otherwise();
}
