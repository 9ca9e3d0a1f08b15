import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Specification } from '../rule.js';

/**
 * The published rule sets this service answers to: veraPDF's validation profiles (github
 * veraPDF/veraPDF-validation-profiles, CC BY 4.0; see README.md here), as their ids and descriptions. Read by
 * the inventory test and `npm run judge:corpus`, never by a run.
 */
export interface PublishedRule {
  specification: Specification;
  clause: string;
  test: number;
  /** veraPDF's object type, e.g. `CosDocument`. */
  object: string;
  description: string;
}

export type ProfileFile = 'PDFA-1B' | 'PDFA-2B' | 'PDFA-3B' | 'PDFUA-1';

const SPECIFICATIONS: Record<string, Specification> = {
  ISO_19005_1: 'ISO 19005-1',
  ISO_19005_2: 'ISO 19005-2',
  ISO_19005_3: 'ISO 19005-3',
  ISO_14289_1: 'ISO 14289-1',
};

export function publishedRules(profile: ProfileFile): PublishedRule[] {
  const text = readFileSync(path.join(import.meta.dirname, `${profile}.tsv`), 'utf8');
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [specification, clause, test, object, description] = line.split('\t');
      return {
        specification: SPECIFICATIONS[specification!]!,
        clause: clause!,
        test: Number(test),
        object: object!,
        description: description!,
      };
    });
}
