import type { RunOptions } from '../store/types.js';
import { accessibilityChecks } from './accessibility.js';
import { archiveChecks } from './archive.js';
import { PDFA_RULES } from '../rules/pdfa/index.js';
import {
  type Check,
  type Draft,
  type Facts,
  type JudgedPart,
  notApplicable,
  type Profile,
  type ProfileName,
  type ProfileSettings,
} from './checks.js';
import { printChecks } from './print.js';
import { ruleChecks } from './rule-checks.js';

export type { JudgedPart, Profile, ProfileName, ProfileSettings } from './checks.js';
export { isLanguageTag } from './accessibility.js';

/**
 * Preflight profiles, as Acrobat Preflight, callas pdfToolbox and veraPDF name them: a set of checks over the
 * report's facts, each with a severity, and a verdict that fails when a check of severity `error` fails.
 * Pure functions of the facts and the run's options: the checks of each profile are in print.ts, archive.ts
 * and accessibility.ts; here, the clause each check implements and the verdict.
 */

export const PROFILE_NAMES: readonly ProfileName[] = ['pdf-print', 'pdf-archive', 'pdf-accessibility'];

/**
 * The clause of the standard each check implements (ISO 19005-2 for pdf-archive, but ISO 19005-1 for the
 * PDF/A-1-only rule; ISO 14289-1 for pdf-accessibility); checks no clause states have none.
 */
const CLAUSES: Record<ProfileName, Readonly<Record<string, string>>> = {
  'pdf-print': {},
  'pdf-archive': {
    fonts_embedded: '6.2.11.4.1',
    file_header: '6.1.2',
    not_encrypted: '6.1.3',
    trailer_id: '6.1.3',
    output_intent: '6.2.4.3',
    output_intent_profile: '6.2.3',
    blend_modes: '6.2.10',
    blending_color_space: '6.2.10',
    transfer_functions: '6.2.5',
    rendering_intents: '6.2.6',
    image_dictionaries: '6.2.8.1',
    annotation_types: '6.3.1',
    annotation_flags: '6.3.2',
    annotation_appearances: '6.3.3',
    no_javascript: '6.5.1',
    forbidden_actions: '6.5.1',
    additional_actions: '6.5.2',
    xmp_pdfa_claim: '6.6.4',
    no_embedded_files: '6.8',
    no_transparency_part1: '6.4',
    xmp_info_agreement: '6.7.3',
  },
  'pdf-accessibility': {
    xmp_pdfua_claim: '5',
    fonts_embedded: '7.21.4.1',
    cid_system_info: '7.21.3.1',
    cid_to_gid_map: '7.21.3.2',
    cmaps: '7.21.3.3',
    font_subsets: '7.21.4.2',
    optional_content: '7.10',
    truetype_encodings: '7.21.6',
    structure_nesting: '7.2',
    unnumbered_headings: '7.4.4',
    role_map: '7.1',
    media_clips: '7.18.6.2',
    note_ids: '7.9',
    xobjects: '7.20',
    formulas_alt_text: '7.7',
    tagged: '7.1',
    suspects: '7.1',
    untagged_content: '7.1',
    tagged_artifacts: '7.1',
    structure_types: '7.1',
    language: '7.2',
    title_displayed: '7.1',
    figures_alt_text: '7.3',
    heading_nesting: '7.4.2',
    table_headers: '7.5',
    annotations_tagged: '7.18.1',
    annotation_descriptions: '7.18.1',
    tab_order: '7.18.3',
    form_field_descriptions: '7.18.4',
    unicode_text: '7.21.7',
  },
};

/**
 * The same checks named by ISO 19005-1's clauses, for a file judged as PDF/A-1 (the metadata checks name
 * their clause themselves).
 */
const PART1_CLAUSES: Readonly<Record<string, string>> = {
  fonts_embedded: '6.3.4',
  file_header: '6.1.2',
  not_encrypted: '6.1.3',
  trailer_id: '6.1.3',
  output_intent: '6.2.3.3',
  output_intent_profile: '6.2.2',
  blend_modes: '6.4',
  blending_color_space: '6.4',
  transfer_functions: '6.2.8',
  rendering_intents: '6.2.9',
  image_dictionaries: '6.2.4',
  annotation_types: '6.5.2',
  annotation_flags: '6.5.3',
  annotation_appearances: '6.5.3',
  no_javascript: '6.6.1',
  forbidden_actions: '6.6.1',
  additional_actions: '6.6.2',
  xmp_pdfa_claim: '6.7.11',
  no_embedded_files: '6.1.11',
  no_transparency_part1: '6.4',
};

/**
 * The part of ISO 19005 a file is held to, as veraPDF decides it: the run's `pdfa_part`, else the part the
 * XMP metadata claims, else PDF/A-2.
 */
export function judgedPart(facts: Facts, options: RunOptions): JudgedPart {
  const held = (part: number, basis: JudgedPart['basis']): JudgedPart | undefined =>
    part === 1 || part === 2 || part === 3 ? { part, basis, standard: `ISO 19005-${part}` } : undefined;
  return (
    held(options.pdfa_part ?? 0, 'option') ??
    held(Number(facts.document.pdfa?.[0]), 'claim') ?? { part: 2, basis: 'default', standard: 'ISO 19005-2' }
  );
}

function titleOf(name: ProfileName, judged: JudgedPart | undefined): string {
  if (name === 'pdf-print') return 'Print production checks';
  if (name === 'pdf-accessibility') return 'Accessibility checks (PDF/UA and EAA basics)';
  const why =
    judged?.basis === 'claim'
      ? 'as the file claims'
      : judged?.basis === 'option'
        ? 'as the run asked'
        : 'the file claims no PDF/A part';
  return `PDF/A-${judged?.part ?? 2}b requirements checked, ${why} (not a PDF/A validation)`;
}

/**
 * The checks of `pdf-archive` that are not published rules and stay as the facts make them: whether every
 * page could be read (a page that could not be is judged by no rule), and JavaScript as PDFium finds it.
 */
const SERVICE_CHECKS = new Set(['pages_readable', 'no_javascript']);

/**
 * `pdf-archive`'s checks from the published rules of the part the file is judged by: a check of today's ids
 * made of rules takes its place; a check id no rule of this part belongs to stays, not applicable, so that a
 * client that looks a check up by id finds it; the checks of new ids follow.
 */
function withRuleChecks(drafts: Draft[], facts: Facts, judged: JudgedPart): Draft[] {
  // facts read without the rules (no `rule_failures`) say nothing of them: no rule passes for want of a reading
  if (facts.document.rule_failures === undefined) return drafts;
  const specification = `ISO 19005-${judged.part}` as const;
  const made = ruleChecks(facts, specification, PDFA_RULES);
  const byId = new Map(made.map((check) => [check.id, check]));
  const kept = drafts.map(
    (draft): Draft =>
      byId.get(draft.id) ??
      (SERVICE_CHECKS.has(draft.id) || draft.status === 'not_applicable'
        ? draft
        : notApplicable(
            draft.id,
            draft.severity,
            `No published rule of ${specification} belongs to this check: the checks with rules judge the file`,
          )),
  );
  const known = new Set(drafts.map((draft) => draft.id));
  return [...kept, ...made.filter((check) => !known.has(check.id))];
}

export function judge(
  name: ProfileName,
  facts: Facts,
  options: RunOptions,
  settings: ProfileSettings,
): Profile {
  const judged = name === 'pdf-archive' ? judgedPart(facts, options) : undefined;
  const drafts =
    name === 'pdf-print'
      ? printChecks(facts, options, settings)
      : judged
        ? archiveChecks(facts, judged)
        : accessibilityChecks(facts);
  const clauses = judged?.part === 1 ? PART1_CLAUSES : CLAUSES[name];
  const checks: Check[] = (judged ? withRuleChecks(drafts, facts, judged) : drafts).map((draft) => ({
    ...draft,
    clause: draft.clause ?? clauses[draft.id] ?? null,
  }));
  const failed = checks.some((c) => c.status === 'fail' && c.severity === 'error');
  return {
    name,
    title: titleOf(name, judged),
    ...(judged ? { judged_as: judged } : {}),
    verdict: failed ? 'fail' : 'pass',
    checks,
  };
}

export const isProfile = (target: string): target is ProfileName =>
  (PROFILE_NAMES as readonly string[]).includes(target);
