import { rule, type Reason, type Rule } from '../../rule.js';
import { wmodeFault } from '../../pdfa/part1/6.3-fonts/6.3.3.3.js';
import { unembeddedCMapFault, usedCMapFault } from '../../pdfa/part2/6.2.11-fonts/6.2.11.3.3.js';

const at = (test: number) => ({ specifications: ['ISO 14289-1'] as const, clause: '7.21.3.3', test });

/** ISO 14289-1, 7.21.3.3 Fonts: CMaps. The same tests as ISO 19005-2 6.2.11.3.3. */
export const rules: Rule[] = [
  rule({
    ...at(1),
    object: 'cmap',
    check: 'cmaps',
    says: 'A CMap other than the predefined ones of ISO 32000-1 Table 118 is embedded',
    fault: unembeddedCMapFault,
    fix: 'embed the CMap as a stream, or encode the font with a predefined CMap such as Identity-H',
  }),
  rule({
    ...at(2),
    object: 'cmap',
    check: 'cmaps',
    says: "An embedded CMap's /WMode is the one its program defines",
    fault: wmodeFault,
    fix: "make the CMap stream's /WMode the same as the /WMode its program defines",
  }),
  rule({
    ...at(3),
    object: 'cmap',
    check: 'cmaps',
    says: 'A CMap uses (/UseCMap, usecmap) no CMap other than the predefined ones of ISO 32000-1 Table 118',
    fault: usedCMapFault,
    fix: 'write the CMap whole, without /UseCMap, or make it use a predefined CMap only',
  }),
];

export const reasons: Reason[] = [];
