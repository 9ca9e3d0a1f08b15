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
    fault: (cmap) =>
      drawn(cmap) && !cmap.embedded && !PREDEFINED_CMAPS.has(cmap.name ?? '')
        ? `the CMap /${cmap.name ?? ''} is neither predefined nor embedded`
        : undefined,
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
    fault: (cmap) =>
      drawn(cmap) &&
      cmap.usedCMap &&
      (cmap.usedCMap.embedded || !PREDEFINED_CMAPS.has(cmap.usedCMap.name ?? ''))
        ? `it uses the ${cmap.usedCMap.embedded ? 'embedded ' : ''}CMap ${cmap.usedCMap.name ?? '(unnamed)'}`
        : undefined,
    fix: 'write the CMap whole, without /UseCMap, or make it use a predefined CMap only',
  }),
];
export const reasons: Reason[] = [];
