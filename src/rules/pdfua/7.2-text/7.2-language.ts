import type {
  LangEntryNode,
  NaturalLanguageTextNode,
  NaturalTextSource,
} from '../../../pdf/model/language.js';
import type { MarkedContentNode, PageContentNode } from '../../../pdf/model/tagged-content.js';
import { rule, type Reason, type Rule } from '../../rule.js';

/**
 * A language identifier (ISO 32000-1 14.9.2): a Language-Tag of RFC 3066, a primary subtag of 1 to 8
 * letters and subtags of 1 to 8 letters or digits, or the empty string, which declares the language
 * unknown. Every well-formed BCP 47 tag (RFC 5646, which obsoletes RFC 3066) is of this form too, so a
 * file written to either keeps the rule. White space around the tag is forgiven.
 */
const LANGUAGE_TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i;
export const isLanguageIdentifier = (value: string): boolean =>
  value.trim() === '' || LANGUAGE_TAG.test(value.trim());

const LANGUAGE_FIX_END =
  "or set the catalog's /Lang (a language tag such as en-US), which every text in the document inherits";

/** A rule that the natural language of one source of text outside the page content is determined. */
function determinedRule(
  test: number,
  source: NaturalTextSource,
  says: string,
  what: string,
  fix: string,
): Rule {
  return rule({
    specifications: ['ISO 14289-1'],
    clause: '7.2',
    test,
    object: 'natural_language_text',
    check: 'language',
    says,
    fault: (node: NaturalLanguageTextNode) =>
      node.source === source && node.language === undefined ? `${what} in no declared language` : undefined,
    fix: `${fix}, ${LANGUAGE_FIX_END}`,
  });
}

/** A rule that the language of a text attribute of a Span sequence is determined. */
function spanRule(
  test: number,
  key: 'ActualText' | 'Alt' | 'E',
  has: (n: MarkedContentNode) => boolean,
): Rule {
  return rule({
    specifications: ['ISO 14289-1'],
    clause: '7.2',
    test,
    object: 'marked_content',
    check: 'language',
    says: `The natural language of the /${key} of a Span marked-content sequence is determined`,
    fault: (node: MarkedContentNode) =>
      node.tag === 'Span' && has(node) && node.language === undefined
        ? `a Span sequence's /${key} in no declared language`
        : undefined,
    fix: `give the Span's property list a /Lang, or the element holding it, ${LANGUAGE_FIX_END}`,
  });
}

/** ISO 14289-1, 7.2 Text: natural language. */
export const rules: Rule[] = [
  determinedRule(
    2,
    'outline item /Title',
    "The natural language of the outline's entries is determined",
    'an outline item title',
    'write the title with a language escape (ISO 32000-1 7.9.2.2)',
  ),
  determinedRule(
    21,
    'element /ActualText',
    "The natural language of a structure element's /ActualText is determined",
    'replacement text (/ActualText)',
    'give the element or one of its ancestors a /Lang',
  ),
  determinedRule(
    22,
    'element /Alt',
    "The natural language of a structure element's /Alt is determined",
    'alternate text (/Alt)',
    'give the element or one of its ancestors a /Lang',
  ),
  determinedRule(
    23,
    'element /E',
    "The natural language of a structure element's /E (expansion of an abbreviation) is determined",
    'an expansion (/E)',
    'give the element or one of its ancestors a /Lang',
  ),
  determinedRule(
    24,
    'annotation /Contents',
    "The natural language of an annotation's /Contents is determined",
    'an annotation description (/Contents)',
    'give the structure element holding the annotation (or an ancestor) a /Lang',
  ),
  determinedRule(
    25,
    'field /TU',
    "The natural language of a form field's /TU is determined",
    'a field description (/TU)',
    'give the structure element holding the field or its widget (or an ancestor) a /Lang',
  ),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.2',
    test: 29,
    object: 'lang_entry',
    check: 'language',
    says: 'Every /Lang (of the catalog, a structure element or a property list) is a language identifier (ISO 32000-1 14.9.2, RFC 3066)',
    fault: (node: LangEntryNode) =>
      node.readable && !isLanguageIdentifier(node.value)
        ? `"${node.value.slice(0, 40)}" is not a language tag`
        : undefined,
    fix: 'write the /Lang as a language tag: a language code, then optional subtags, separated by hyphens, such as en, en-US or zh-Hant-TW',
  }),
  spanRule(30, 'ActualText', (n) => n.actualText !== undefined && n.actualText !== ''),
  spanRule(31, 'Alt', (n) => n.alt !== undefined && n.alt !== ''),
  spanRule(32, 'E', (n) => n.expansion !== undefined && n.expansion !== ''),
  determinedRule(
    33,
    'metadata x-default',
    'The natural language of the document metadata is determined',
    'an XMP language alternative with only an x-default item',
    'give the XMP property an item with a real language (xml:lang="en-US")',
  ),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.2',
    test: 34,
    object: 'page_content',
    check: 'language',
    says: 'The natural language of the text in page content is determined',
    fault: (node: PageContentNode) =>
      node.textWithoutLanguage === 0
        ? undefined
        : `${node.textWithoutLanguage} text operator${node.textWithoutLanguage === 1 ? '' : 's'} in no declared language: ${node.textWithoutLanguageExamples.join('; ')}`,
    fix: `give the marked content (/Lang in its property list) or the structure element holding the text a /Lang, ${LANGUAGE_FIX_END}`,
  }),
];

export const reasons: Reason[] = [];
