import type { CMapNode } from '../../../../pdf/model/fonts.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { drawn, PREDEFINED_CMAPS } from '../../part1/6.3-fonts/font-use.js';
import { wmodeRule } from '../../part1/6.3-fonts/6.3.3.3.js';
import { clauseTests } from '../../shared/numbering.js';

const spec = ['ISO 19005-2', 'ISO 19005-3'] as const;

/** ISO 19005-2 and -3, 6.2.11.3.3 CMaps. */
export const rules: Rule[] = [
  rule({
    specifications: spec,
    clause: '6.2.11.3.3',
    test: 1,
    object: 'cmap',
    check: 'composite_fonts',
    says: 'A CMap other than the predefined ones of ISO 32000-1 Table 118 is embedded',
    fault: (cmap) => unembeddedCMapFault(cmap),
    fix: 'embed the CMap as a stream, or encode the font with a predefined CMap such as Identity-H',
  }),
  wmodeRule(clauseTests(spec, '6.2.11.3.3')(2)),
  rule({
    specifications: spec,
    clause: '6.2.11.3.3',
    test: 3,
    object: 'cmap',
    check: 'composite_fonts',
    says: 'A CMap uses (/UseCMap, usecmap) no CMap other than the predefined ones of ISO 32000-1 Table 118',
    fault: (cmap) => usedCMapFault(cmap),
    fix: 'write the CMap whole, without /UseCMap, or make it use a predefined CMap only',
  }),
];
/** A drawn CMap that is neither predefined nor embedded (shared with ISO 14289-1 7.21.3.3-1). */
export const unembeddedCMapFault = (cmap: CMapNode): string | undefined =>
  drawn(cmap) && !cmap.embedded && !PREDEFINED_CMAPS.has(cmap.name ?? '')
    ? `the CMap /${cmap.name ?? ''} is neither predefined nor embedded`
    : undefined;

/** A drawn CMap that uses a CMap other than a predefined one (shared with ISO 14289-1 7.21.3.3-3). */
export const usedCMapFault = (cmap: CMapNode): string | undefined =>
  drawn(cmap) && cmap.usedCMap && (cmap.usedCMap.embedded || !PREDEFINED_CMAPS.has(cmap.usedCMap.name ?? ''))
    ? `it uses the ${cmap.usedCMap.embedded ? 'embedded ' : ''}CMap ${cmap.usedCMap.name ?? '(unnamed)'}`
    : undefined;

export const reasons: Reason[] = [];
