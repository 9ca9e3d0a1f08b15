import { PDFA_RULES } from '../rules/pdfa/index.js';
import {
  documentCheck,
  type Draft,
  type Facts,
  type JudgedPart,
  notApplicable,
  pagesReadable,
} from './checks.js';
import { ruleChecks } from './rule-checks.js';

/**
 * `pdf-archive`: the published rules of the part of ISO 19005 the file is judged by (src/rules/pdfa), each
 * check the group of its rules, and two checks of the service's own. The check ids of reports before the rules
 * came first, in their order, so that a client finds them where it did; then the ids the rules brought.
 */
const EARLIER_IDS = [
  ...['fonts_embedded', 'file_header', 'not_encrypted', 'trailer_id', 'forbidden_actions'],
  ...['additional_actions', 'output_intent', 'output_intent_profile', 'blending_color_space'],
  ...['blend_modes', 'transfer_functions', 'rendering_intents', 'image_dictionaries', 'annotation_types'],
  ...['annotation_flags', 'annotation_appearances', 'no_javascript', 'no_embedded_files', 'xmp_pdfa_claim'],
  ...['object_syntax', 'stream_syntax', 'hex_strings', 'implementation_limits', 'lzw_filters'],
  ...['form_xobjects', 'halftones', 'font_subsets', 'permissions', 'xmp_properties'],
  ...['xmp_extension_schemas', 'xmp_info_agreement', 'no_transparency_part1'],
];

/** JavaScript as PDFium finds it (document scripts, JavaScript actions): the service's own check. */
const noJavascript = (facts: Facts, part: 1 | 2 | 3): Draft => ({
  ...documentCheck(
    'no_javascript',
    !facts.document.javascript,
    'No JavaScript',
    'The file contains JavaScript (document scripts or JavaScript actions): remove it',
  ),
  clause: part === 1 ? '6.6.1' : '6.5.1',
});

export function archiveChecks(facts: Facts, judged: JudgedPart): Draft[] {
  const specification = `ISO 19005-${judged.part}` as const;
  // facts read without the rules say nothing of them: no check passes for want of a reading
  const judgedByRules = facts.document.rule_failures !== undefined;
  const made = judgedByRules ? ruleChecks(facts, specification, PDFA_RULES) : [];
  const byId = new Map(made.map((check) => [check.id, check]));
  const earlier = EARLIER_IDS.map((id): Draft =>
    id === 'no_javascript'
      ? noJavascript(facts, judged.part)
      : (byId.get(id) ??
        notApplicable(
          id,
          'error',
          judgedByRules
            ? `No published rule of ${specification} belongs to this check`
            : 'The file was read without the published rules',
        )),
  );
  const known = new Set(EARLIER_IDS);
  return [pagesReadable(facts), ...earlier, ...made.filter((check) => !known.has(check.id))];
}
