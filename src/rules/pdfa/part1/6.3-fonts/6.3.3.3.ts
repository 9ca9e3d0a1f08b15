import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';
import { drawn } from './font-use.js';

/** The rule that an embedded CMap's /WMode is its program's, as each part numbers it. */
export const wmodeRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'cmap',
    check: 'composite_fonts',
    says: "An embedded CMap's /WMode is the one its program defines",
    fault: wmodeFault,
    fix: "make the CMap stream's /WMode the same as the /WMode its program defines",
  });

/** ISO 19005-1, 6.3.3.3 CMaps. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.3.3.3',
    test: 1,
    object: 'cmap',
    check: 'composite_fonts',
    says: 'A CMap other than Identity-H and Identity-V is embedded',
    fault: (cmap) =>
      drawn(cmap) && !cmap.embedded && cmap.name !== 'Identity-H' && cmap.name !== 'Identity-V'
        ? `the CMap /${cmap.name ?? ''} is not embedded`
        : undefined,
    fix: 'embed the CMap as a stream, or encode the font with Identity-H (save the file again with a PDF/A writer)',
  }),
  wmodeRule(clauseTests(['ISO 19005-1'], '6.3.3.3')(2)),
];

/** What is wrong with an embedded CMap's /WMode: not the one its program defines. */
export function wmodeFault(cmap: {
  drawnModes: number[];
  embedded: boolean;
  wmodeDeclared: number;
  wmodeInProgram: number | undefined;
}): string | undefined {
  if (!drawn(cmap) || !cmap.embedded || cmap.wmodeInProgram === undefined) return undefined;
  return cmap.wmodeInProgram === cmap.wmodeDeclared
    ? undefined
    : `the stream declares /WMode ${cmap.wmodeDeclared} and its program defines ${cmap.wmodeInProgram}`;
}

export const reasons: Reason[] = [];
