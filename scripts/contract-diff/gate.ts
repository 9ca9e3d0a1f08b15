/**
 * The breaking-change gate's judgement, apart from its files: each released version's contract as it was
 * released (its snapshot) against the same version as it is served now (the newest contract rewritten down
 * by the version changes newer than it). A break passes only when an exception names it with a reason.
 */
import { type Break, BREAK_KINDS, type Json, isObject } from './document.js';
import { findBreaks } from './diff.js';

export interface BreakingException {
  readonly version: string;
  readonly kind: string;
  /** The break's location as the gate prints it; `*` stands for any run of characters. */
  readonly location: string;
  readonly reason: string;
}

/** The exceptions file's entries, refused whole when one lacks a field (a reason above all). */
export function readExceptions(parsed: unknown): BreakingException[] {
  if (parsed === null || parsed === undefined) return [];
  const entries = isObject(parsed) && 'exceptions' in parsed ? parsed.exceptions : parsed;
  if (entries === null) return [];
  if (!Array.isArray(entries)) throw new Error('the breaking-change exceptions must be a list');
  return entries.map((entry, index) => {
    const where = `breaking-change exception ${index + 1}`;
    if (!isObject(entry)) throw new Error(`${where} is not a mapping`);
    for (const field of ['version', 'kind', 'location', 'reason'] as const)
      if (typeof entry[field] !== 'string' || entry[field].trim() === '')
        throw new Error(
          `${where} has no ${field}${field === 'reason' ? ': say why the break is allowed' : ''}`,
        );
    if (!(BREAK_KINDS as readonly string[]).includes(entry.kind as string))
      throw new Error(`${where}: unknown kind "${String(entry.kind)}" (one of: ${BREAK_KINDS.join(', ')})`);
    return entry as unknown as BreakingException;
  });
}

function matches(pattern: string, location: string): boolean {
  const expression = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${expression.join('.*')}$`).test(location);
}

export interface VersionVerdict {
  readonly version: string;
  /** Breaks no exception covers: the gate fails on any. */
  readonly breaks: Break[];
  /** Breaks an exception allows, with it. */
  readonly excused: { break: Break; exception: BreakingException }[];
}

export function judgeVersion(
  version: string,
  released: Json,
  served: Json,
  exceptions: readonly BreakingException[],
): VersionVerdict {
  const verdict: VersionVerdict = { version, breaks: [], excused: [] };
  for (const found of findBreaks(released, served)) {
    const exception = exceptions.find(
      (entry) =>
        entry.version === version && entry.kind === found.kind && matches(entry.location, found.location),
    );
    if (exception) verdict.excused.push({ break: found, exception });
    else verdict.breaks.push(found);
  }
  return verdict;
}

/** `2026-11-29: response property removed: GET /api/open/events 200 data[].data.id (removed or renamed)` */
export function describeBreak(version: string, found: Break): string {
  return `${version}: ${found.kind}: ${found.location}${found.detail ? ` (${found.detail})` : ''}`;
}

/** The exceptions that no longer excuse anything: kept, they would let a future break of that kind through. */
export function unusedExceptions(
  exceptions: readonly BreakingException[],
  verdicts: readonly VersionVerdict[],
): BreakingException[] {
  const used = new Set(verdicts.flatMap((verdict) => verdict.excused.map((excused) => excused.exception)));
  return exceptions.filter((exception) => !used.has(exception));
}
