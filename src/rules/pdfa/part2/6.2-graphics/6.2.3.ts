import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { sameProfileRule } from '../../part1/6.2-graphics/6.2.2.js';
import { outputProfileFault } from '../../shared/icc-profiles.js';

const at = clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.2.3');

/** ISO 19005-2 and -3, 6.2.3 Output intent. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.3',
    test: 1,
    object: 'outputIntent',
    check: 'output_intent_profile',
    says: 'An output intent\'s /DestOutputProfile is an output ("prtr") or display ("mntr") ICC profile of gray, RGB or CMYK',
    fault: outputProfileFault(5),
    fix: 'embed as the output intent\'s /DestOutputProfile an output ("prtr") or display ("mntr") ICC profile of gray, RGB or CMYK, such as sRGB IEC61966-2.1',
  }),
  sameProfileRule(
    at(2),
    'make every output intent (PDF/A, PDF/X, PDF/E) refer to one and the same ICC profile object',
  ),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.3',
    test: 3,
    object: 'outputIntent',
    check: 'output_intent_profile',
    says: 'A PDF/X output intent has no /DestOutputProfileRef (an external profile)',
    fault: (intent) =>
      intent.subtype === 'GTS_PDFX' && intent.hasDestOutputProfileRef
        ? 'a PDF/X output intent with a /DestOutputProfileRef'
        : undefined,
    fix: 'embed the profile as /DestOutputProfile and remove /DestOutputProfileRef from the PDF/X output intent',
  }),
];
export const reasons: Reason[] = [];
