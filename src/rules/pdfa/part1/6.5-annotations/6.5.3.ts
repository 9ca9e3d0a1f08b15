import { rule, type Reason, type Rule } from '../../../rule.js';
import { FLAG_HIDDEN, FLAG_INVISIBLE, FLAG_NOVIEW, flagsFault } from '../../part2/6.3-annotations/6.3.2.js';
import { appearanceRules } from '../../part2/6.3-annotations/6.3.3.js';
import { clauseTests } from '../../shared/numbering.js';

/** ISO 19005-1, 6.5.3 Annotation dictionaries. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.5.3',
    test: 1,
    object: 'annotation',
    check: 'annotation_opacity',
    says: 'An annotation has no CA key other than 1.0',
    fault: (a) => (a.opacity === null || a.opacity === 1 ? undefined : `its opacity (/CA) is ${a.opacity}`),
    fix: 'make the annotation opaque: remove its /CA or set it to 1.0 (PDF/A-1 has no transparency)',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.5.3',
    test: 2,
    object: 'annotation',
    check: 'annotation_flags',
    says: 'Every annotation has the F key, with Print set and Hidden, Invisible and NoView clear',
    fault: (a) =>
      a.flags === null
        ? 'it has no flags (/F)'
        : flagsFault(a.flags, [
            [FLAG_INVISIBLE, 'Invisible'],
            [FLAG_HIDDEN, 'Hidden'],
            [FLAG_NOVIEW, 'NoView'],
          ]),
    fix: 'give the annotation flags with Print set and Hidden, Invisible and NoView clear (/F 4)',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.5.3',
    test: 3,
    object: 'annotation',
    check: 'annotation_colors',
    says: 'An annotation has no C or IC array unless the PDF/A output intent’s profile is RGB',
    fault: (a) =>
      (!a.color && !a.interiorColor) || a.outputProfileColorSpace === 'RGB'
        ? undefined
        : `it has ${a.color ? '/C' : '/IC'} colours and the output intent is ${a.outputProfileColorSpace ?? 'missing'}, not RGB`,
    fix: 'remove the annotation’s /C and /IC colours, or use an RGB output intent',
  }),
  ...appearanceRules(clauseTests(['ISO 19005-1'], '6.5.3'), 4),
];
export const reasons: Reason[] = [];
