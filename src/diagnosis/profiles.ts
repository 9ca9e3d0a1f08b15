import type { RuleSetName } from '../rules/object-judges.js';
import type { RunOptions } from '../store/types.js';
import { accessibilityChecks } from './accessibility.js';
import { archiveChecks } from './archive.js';
import { matterhornCheckpoints, withConditions } from './matterhorn.js';
import type { Check, Facts, JudgedPart, Profile, ProfileName, ProfileSettings } from './checks.js';
import { printChecks } from './print.js';

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
 * The clause of ISO 14289-1 each pdf-accessibility check implements; checks no clause states have none.
 */
const CLAUSES: Record<ProfileName, Readonly<Record<string, string>>> = {
  'pdf-print': {},
  // pdf-archive's checks name their clauses themselves, from their rules (archive.ts)
  'pdf-archive': {},
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
 * The part of ISO 19005 a file is held to, as veraPDF decides it: the run's `pdfa_part`, else the part the
 * XMP metadata claims, else PDF/A-2.
 */
export function judgedPart(
  facts: { document: Pick<Facts['document'], 'pdfa'> },
  options: RunOptions,
): JudgedPart {
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
        : withConditions(accessibilityChecks(facts));
  const clauses = CLAUSES[name];
  const checks: Check[] = drafts.map((draft) => ({
    ...draft,
    clause: draft.clause ?? clauses[draft.id] ?? null,
  }));
  const failed = checks.some((c) => c.status === 'fail' && c.severity === 'error');
  const byRules = name === 'pdf-accessibility' && facts.document.rule_failures !== undefined;
  return {
    name,
    title: titleOf(name, judged),
    ...(judged ? { judged_as: judged } : {}),
    verdict: failed ? 'fail' : 'pass',
    checks,
    ...(byRules ? { matterhorn: matterhornCheckpoints(checks) } : {}),
  };
}

export const isProfile = (target: string): target is ProfileName =>
  (PROFILE_NAMES as readonly string[]).includes(target);

/**
 * The published rules a run of `target` has its file judged by: only the profiles whose checks are made of
 * them pay for the reading, and each for its own standard's (the reports of the others carry no
 * `rule_failures`).
 */
export const judgedByRules = (target: string): RuleSetName | undefined =>
  target === 'pdf-archive' ? 'ISO 19005' : target === 'pdf-accessibility' ? 'ISO 14289-1' : undefined;
