import type { Schemas } from '../contract/schemas.js';

/**
 * What every profile's checks are made of: the report's facts, a check's draft, and the helpers that judge
 * pages, the document and annotations alike.
 */

export type Report = Schemas['PreflightReport'];
export type Facts = Pick<Report, 'document' | 'pages'>;
export type Profile = Schemas['Profile'];
export type ProfileName = Profile['name'];
export type Check = Profile['checks'][number];
/**
 * A check as a profile's rule makes it; `judge` adds the clause its profile says it implements, unless the
 * rule names one (a clause that depends on the part of the standard the file is judged by).
 */
export type Draft = Omit<Check, 'clause'> & { clause?: string };
export type Severity = Check['severity'];
export type PageReport = Report['pages'][number];
export type Annotation = PageReport['annotation_details'][number];
/** The part of ISO 19005 a file is held to, and why (`pdf-archive`). */
export type JudgedPart = NonNullable<Profile['judged_as']>;

export interface ProfileSettings {
  /** `PRINT_MIN_PPI`: the resolution `pdf-print` asks of placed images when the run does not say. */
  printMinPpi: number;
}

/** Annotation flags (ISO 32000-1, 12.5.3). */
export const FLAG_INVISIBLE = 1;
export const FLAG_HIDDEN = 2;
export const FLAG_PRINT = 4;
export const FLAG_NOVIEW = 32;
export const FLAG_TOGGLE_NOVIEW = 256;

export const okPages = (facts: Facts) =>
  facts.pages.filter((p): p is PageReport & { status: 'ok' } => p.status === 'ok');

export const pass = (id: string, severity: Severity, message: string): Draft => ({
  id,
  severity,
  status: 'pass',
  pages: [],
  message,
});
export const fail = (id: string, severity: Severity, message: string, pages: number[] = []): Draft => ({
  id,
  severity,
  status: 'fail',
  pages,
  message,
});
export const notApplicable = (id: string, severity: Severity, message: string): Draft => ({
  id,
  severity,
  status: 'not_applicable',
  pages: [],
  message,
});

/** What a list of names looks like in a message: the first five, and how many more. */
export const listed = (names: readonly string[]) =>
  names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');

/** A check over pages: it fails on the pages where `problem` names something, listing the first names. */
export function pageCheck(
  facts: Facts,
  id: string,
  severity: Severity,
  problem: (page: PageReport & { status: 'ok' }) => string[],
  messages: { pass: string; fail: (subjects: string[]) => string },
): Draft {
  const pages: number[] = [];
  const subjects = new Set<string>();
  for (const page of okPages(facts)) {
    const found = problem(page);
    if (found.length === 0) continue;
    pages.push(page.page);
    for (const subject of found) subjects.add(subject);
  }
  if (pages.length === 0) return pass(id, severity, messages.pass);
  const shown = listed([...subjects]);
  return fail(id, severity, messages.fail(shown ? [shown] : []), pages);
}

/** A check of the whole document, severity error. */
export const documentCheck = (id: string, ok: boolean, passed: string, failed: string): Draft =>
  ok ? pass(id, 'error', passed) : fail(id, 'error', failed);

export function pagesReadable(facts: Facts): Draft {
  const failed = facts.pages.filter((p) => p.status === 'failed').map((p) => p.page);
  return failed.length === 0
    ? pass('pages_readable', 'error', 'Every page could be read')
    : fail(
        'pages_readable',
        'error',
        'Pages could not be read, so they were not checked. Make the PDF again from its source (or repair ' +
          'it) and check it again',
        failed,
      );
}

export const fontsEmbedded = (facts: Facts) =>
  pageCheck(
    facts,
    'fonts_embedded',
    'error',
    (p) => p.fonts.filter((f) => f.used_for_rendering && !f.embedded).map((f) => f.name),
    {
      pass: 'Every font is embedded',
      fail: ([names]) =>
        `Fonts not embedded: ${names}. Embed them when the PDF is made (or print it to PDF again)`,
    },
  );

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A check over the pages' annotations: `problem` names what is wrong with one, or nothing. */
export const annotationCheck = (
  facts: Facts,
  id: string,
  problem: (annotation: Annotation) => string | undefined,
  messages: { pass: string; fail: (subjects: string[]) => string },
) =>
  pageCheck(
    facts,
    id,
    'error',
    (p) => p.annotation_details.map(problem).filter((found): found is string => found !== undefined),
    messages,
  );
