import {
  annotationCheck,
  capitalized,
  type Annotation,
  type Draft,
  type Facts,
  fail,
  FLAG_HIDDEN,
  fontsEmbedded,
  listed,
  notApplicable,
  pageCheck,
  pagesReadable,
  pass,
  documentCheck,
} from './checks.js';

/** `pdf-accessibility`: the requirements of ISO 14289-1 (PDF/UA-1), clause by clause. */

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
 * PDF/UA-1 7.2: the natural language of the text is known, from the catalog's /Lang or from a /Lang on the
 * structure elements (or their ancestors) that hold it; every /Lang set must be a BCP 47 tag.
 */
function languageCheck(doc: Facts['document']): Draft {
  const bad = [doc.language, ...doc.struct_languages].filter(
    (tag): tag is string => tag !== null && !isLanguageTag(tag),
  );
  if (bad.length > 0)
    return fail(
      'language',
      'error',
      `Languages that are not BCP 47 tags: ${bad
        .slice(0, 5)
        .map((t) => `"${t}"`)
        .join(', ')}: use tags such as en-US`,
    );
  if (doc.language !== null) return pass('language', 'error', `The language is ${doc.language}`);
  if (doc.struct_content > 0 && doc.struct_content_without_language === 0)
    return pass(
      'language',
      'error',
      `The structure elements declare the language (${doc.struct_languages.join(', ')})`,
    );
  return fail(
    'language',
    'error',
    doc.struct_content_without_language > 0 && doc.struct_languages.length > 0
      ? `${doc.struct_content_without_language} pieces of tagged content have no language and the catalog declares none: set the catalog's /Lang to a BCP 47 tag such as en-US`
      : "The document declares no language: set the catalog's /Lang to a BCP 47 tag such as en-US",
  );
}

/** A check of the findings the reader made for one clause of ISO 14289-1: it fails with all of them. */
function uaClauseCheck(
  doc: Facts['document'],
  id: string,
  clause: string,
  passed: string,
  fix: string,
): Draft {
  const found = (doc.ua_findings ?? []).filter((f) => f.clause === clause);
  return found.length === 0
    ? pass(id, 'error', passed)
    : fail(id, 'error', `${capitalized(listed(found.map((f) => f.message)))}: ${fix}`);
}

/**
 * ISO 14289-1's clauses read object by object (`document.ua_findings`): the composite fonts' CIDSystemInfo,
 * CIDToGIDMap and CMaps (7.21.3), the glyphs a CIDSet or CharSet lists (7.21.4.2), non-symbolic TrueType
 * fonts' encodings (7.21.6), the nesting of tables, lists and tables of contents (7.2), unnumbered headings
 * (7.4.4), standard types remapped (7.1), notes' IDs (7.9), media clips (7.18.6.2), optional content
 * configurations (7.10), reference and PostScript XObjects (7.20), and formulas' alternate text (7.7).
 */
function uaFindingChecks(doc: Facts['document']): Draft[] {
  const rule = (id: string, clause: string, passed: string, fix: string) =>
    uaClauseCheck(doc, id, clause, passed, fix);
  return [
    rule(
      'cid_system_info',
      '7.21.3.1',
      "Every composite font's CIDFont and CMap name the same character collection",
      "give the CIDFont and the CMap the same Registry and Ordering, and the CIDFont a Supplement no later than the CMap's",
    ),
    rule(
      'cid_to_gid_map',
      '7.21.3.2',
      'Every embedded TrueType CIDFont maps its CIDs to glyphs',
      'set /CIDToGIDMap to /Identity or to a stream that maps the CIDs',
    ),
    rule(
      'cmaps',
      '7.21.3.3',
      'Every CMap is Identity-H, Identity-V or embedded, as its program says',
      'embed the CMap (or use Identity-H), and write the /WMode its program defines',
    ),
    rule(
      'structure_nesting',
      '7.2',
      'Tables, lists and tables of contents are structured as ISO 32000-1 says',
      'put TR in Table, THead, TBody or TFoot, TH and TD in TR, LI (Lbl, LBody) in L, TOCI in TOC, and nothing else in them; give every row of a table the same number of columns, spans counted',
    ),
    rule(
      'media_clips',
      '7.18.6.2',
      'Every media clip names its content type and describes itself',
      'give each media clip data dictionary a /CT and an /Alt with a description',
    ),
    rule(
      'role_map',
      '7.1',
      'The role map leaves the standard structure types as they are',
      'remove the standard types from /RoleMap: map only your own types, to standard ones',
    ),
    rule('note_ids', '7.9', 'Every Note has an ID of its own', 'give each Note element a unique /ID'),
    rule(
      'unnumbered_headings',
      '7.4.4',
      'Unnumbered headings (H) are used one per element, and not beside numbered ones',
      'give each section its own H, or use numbered headings (H1 to H6) throughout',
    ),
    rule(
      'truetype_encodings',
      '7.21.6',
      'Every non-symbolic TrueType font is encoded by MacRoman or WinAnsi, with glyph names known to Unicode',
      'encode non-symbolic TrueType fonts with /WinAnsiEncoding or /MacRomanEncoding, and name glyphs in /Differences by Adobe Glyph List names',
    ),
    rule(
      'optional_content',
      '7.10',
      'Every optional content configuration has a name and no /AS entry',
      'give each configuration (/OCProperties /D and /Configs) a /Name, and remove /AS',
    ),
    rule(
      'xobjects',
      '7.20',
      'No reference or PostScript XObject',
      'replace reference XObjects with their content, and remove PostScript XObjects',
    ),
    rule(
      'formulas_alt_text',
      '7.7',
      'Every formula has alternate text',
      'give each Formula element an /Alt (or /ActualText) that reads the expression',
    ),
    rule(
      'font_subsets',
      '7.21.4.2',
      'Every CIDSet and CharSet lists the glyphs of its program',
      'list every glyph of the font program in its /CIDSet or /CharSet, or remove the /CIDSet or /CharSet',
    ),
  ];
}

export function accessibilityChecks(facts: Facts): Draft[] {
  const doc = facts.document;
  const figures = doc.struct_figures;
  const title = doc.xmp_title ?? doc.title;
  const exempt = (a: Annotation) =>
    a.subtype === 'Popup' ||
    a.subtype === 'PrinterMark' ||
    (a.flags !== null && (a.flags & FLAG_HIDDEN) !== 0);
  return [
    pagesReadable(facts),
    fontsEmbedded(facts),
    ...uaFindingChecks(doc),
    documentCheck(
      'xmp_pdfua_claim',
      doc.xmp_metadata && doc.pdfua === '1',
      `XMP metadata claims PDF/UA-${doc.pdfua}`,
      !doc.xmp_metadata
        ? 'The file has no XMP metadata: add it, with the PDF/UA identification (pdfuaid:part 1)'
        : doc.pdfua === null
          ? 'The XMP metadata does not identify PDF/UA: add pdfuaid:part 1 in the namespace http://www.aiim.org/pdfua/ns/id/, written with the prefix pdfuaid'
          : `The XMP metadata claims PDF/UA part "${doc.pdfua}", and these checks are PDF/UA-1's: set pdfuaid:part to 1`,
    ),
    documentCheck(
      'tagged',
      doc.tagged,
      'The PDF is tagged',
      'The PDF is not tagged (no marked structure tree): make it with tags, or tag it in an editor',
    ),
    documentCheck(
      'suspects',
      !doc.suspects,
      'The tags are not marked as suspect',
      'The file says its tags may be wrong (/MarkInfo /Suspects true): check the tags, then set /Suspects false',
    ),
    doc.tagged
      ? pageCheck(
          facts,
          'untagged_content',
          'error',
          (p) => (p.untagged_content > 0 ? [`${p.untagged_content} operations`] : []),
          {
            pass: 'All content is tagged or marked as an artifact',
            fail: () =>
              'Content that is neither tagged nor marked as an artifact: tag it, or mark headers, footers and decoration as artifacts',
          },
        )
      : notApplicable('untagged_content', 'error', 'The PDF is not tagged (see tagged)'),
    doc.tagged
      ? pageCheck(
          facts,
          'tagged_artifacts',
          'error',
          (p) => ((p.tagged_in_artifacts ?? 0) > 0 ? [`${p.tagged_in_artifacts} sequences`] : []),
          {
            pass: 'No tagged content is marked as an artifact too',
            fail: () =>
              'Tagged content (marked content with an MCID) inside content marked as an artifact: take it out of the artifact, or untag it',
          },
        )
      : notApplicable('tagged_artifacts', 'error', 'The PDF is not tagged (see tagged)'),
    documentCheck(
      'structure_types',
      doc.struct_types_nonstandard.length === 0,
      'Every structure type is standard or role-mapped to one',
      `Structure types that are not standard and map to none: ${listed(doc.struct_types_nonstandard)}: map them in the /RoleMap to standard types`,
    ),
    languageCheck(doc),
    documentCheck(
      'title_displayed',
      title !== null && doc.display_doc_title,
      'The title is shown as the window title',
      title === null
        ? 'The document has no title: give it one (XMP dc:title) and set /DisplayDocTitle true'
        : 'The title is not shown as the window title: set /ViewerPreferences /DisplayDocTitle true',
    ),
    !doc.tagged && figures === 0
      ? notApplicable('figures_alt_text', 'error', 'No structure tree to hold figures')
      : documentCheck(
          'figures_alt_text',
          doc.struct_figures_without_alt === 0,
          `Every figure (${figures}) has alternate text`,
          `${doc.struct_figures_without_alt} of ${figures} figures have no alternate text: give each an /Alt`,
        ),
    documentCheck(
      'heading_nesting',
      doc.struct_heading_skips.length === 0,
      'The numbered headings step down one level at a time',
      `Numbered headings skip levels (${listed(doc.struct_heading_skips)}): start at H1 and go down one level at a time`,
    ),
    uaClauseCheck(
      doc,
      'table_headers',
      '7.5',
      "Every table's data cells have header cells that can be told",
      "give each header cell (TH) a Scope of Row, Column or Both, or give the data cells Headers naming the header cells' IDs",
    ),
    annotationCheck(facts, 'annotations_tagged', (a) => (exempt(a) || a.tagged ? undefined : a.subtype), {
      pass: 'Every annotation is in the structure tree',
      fail: ([types]) =>
        `Annotations outside the structure tree: ${types}: tag them (links in Link, fields in Form, others in Annot)`,
    }),
    annotationCheck(
      facts,
      'annotation_descriptions',
      (a) =>
        exempt(a) || a.subtype === 'Widget' || a.contents || a.alt || a.outside_crop ? undefined : a.subtype,
      {
        pass: 'Every annotation has a description (/Contents, or /Alt on its structure element)',
        fail: ([types]) =>
          `Annotations without a description: ${types}: give each a /Contents saying what it is or where it goes`,
      },
    ),
    pageCheck(
      facts,
      'tab_order',
      'error',
      (p) => (p.annotation_details.length > 0 && p.tab_order !== 'S' ? [p.tab_order ?? 'none'] : []),
      {
        pass: 'Pages with annotations are tabbed in structure order',
        fail: () =>
          "Pages with annotations do not follow the structure when tabbing: set the page's /Tabs to /S",
      },
    ),
    documentCheck(
      'form_field_descriptions',
      doc.form_fields_without_description === 0,
      doc.form_fields > 0 ? `Every form field (${doc.form_fields}) has a description` : 'No form fields',
      `${doc.form_fields_without_description} of ${doc.form_fields} form fields have no description: give each a /TU (the name a screen reader reads)`,
    ),
    pageCheck(
      facts,
      'unicode_text',
      'error',
      (p) => p.fonts.filter((f) => f.used_for_rendering && f.unicode_mapping === 'none').map((f) => f.name),
      {
        pass: 'Text can be extracted as Unicode',
        fail: ([names]) =>
          `Fonts whose text maps to no Unicode (no ToUnicode map, standard encoding or Adobe glyph names): ${names}. Make the PDF with ToUnicode maps`,
      },
    ),
    pageCheck(facts, 'scanned_pages', 'error', (p) => (!p.has_text && p.images.length > 0 ? ['scan'] : []), {
      pass: 'No page is an image without text',
      fail: () => 'Pages are images with no text: run OCR on them',
    }),
  ];
}
