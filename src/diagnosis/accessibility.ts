import { PDFUA_RULES } from '../rules/pdfua/index.js';
import { type Draft, type Facts, notApplicable, pageCheck, pagesReadable } from './checks.js';
import { ruleChecks } from './rule-checks.js';

/**
 * A well-formed BCP 47 language tag (RFC 5646, section 2.1): language (with extended subtags), script,
 * region, variants, extensions and private use, or a private-use or grandfathered tag.
 */
const BCP47 = new RegExp(
  '^(?:(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4}|[a-z]{5,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?' +
    '(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wy-z](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?' +
    '|x(?:-[a-z0-9]{1,8})+' +
    '|en-gb-oed|i-(?:ami|bnn|default|enochian|hak|klingon|lux|mingo|navajo|pwn|tao|tay|tsu)' +
    '|sgn-(?:be-fr|be-nl|ch-de)|art-lojban|cel-gaulish|no-bok|no-nyn|zh-(?:guoyu|hakka|min|min-nan|xiang))$',
  'i',
);

export const isLanguageTag = (tag: string): boolean => BCP47.test(tag.trim());

/**
 * `pdf-accessibility`: the published rules of ISO 14289-1 (PDF/UA-1, src/rules/pdfua), each check the group of
 * its rules, and two checks of the service's own. The check ids of reports before the rules came first, in
 * their order, so that a client finds them where it did; then the ids the rules brought.
 */
const EARLIER_IDS = [
  ...['fonts_embedded', 'cid_system_info', 'cid_to_gid_map', 'cmaps', 'structure_nesting', 'media_clips'],
  ...['role_map', 'note_ids', 'unnumbered_headings', 'truetype_encodings', 'optional_content', 'xobjects'],
  ...['formulas_alt_text', 'font_subsets', 'xmp_pdfua_claim', 'tagged', 'suspects', 'untagged_content'],
  ...['tagged_artifacts', 'structure_types', 'language', 'title_displayed', 'figures_alt_text'],
  ...['heading_nesting', 'table_headers', 'annotations_tagged', 'annotation_descriptions', 'tab_order'],
  ...['form_field_descriptions', 'unicode_text'],
];

/**
 * Pages that are pictures with no text: no clause of ISO 14289-1 names them (their content is judged by the
 * rules as any other), so the service's own warning: they need OCR before anyone can read them.
 */
const scannedPages = (facts: Facts): Draft =>
  pageCheck(facts, 'scanned_pages', 'warning', (p) => (!p.has_text && p.images.length > 0 ? ['scan'] : []), {
    pass: 'No page is an image without text',
    fail: () => 'Pages are images with no text: run OCR on them',
  });

export function accessibilityChecks(facts: Facts): Draft[] {
  // facts read without the rules say nothing of them: no check passes for want of a reading
  const judgedByRules = facts.document.rule_failures !== undefined;
  const made = judgedByRules ? ruleChecks(facts, 'ISO 14289-1', PDFUA_RULES) : [];
  const byId = new Map(made.map((check) => [check.id, check]));
  const earlier = EARLIER_IDS.map(
    (id): Draft =>
      byId.get(id) ??
      notApplicable(
        id,
        'error',
        judgedByRules
          ? 'No published rule of ISO 14289-1 belongs to this check'
          : 'The file was read without the published rules',
      ),
  );
  const known = new Set(EARLIER_IDS);
  return [
    pagesReadable(facts),
    ...earlier,
    ...made.filter((check) => !known.has(check.id)),
    scannedPages(facts),
  ];
}
