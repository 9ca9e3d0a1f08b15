import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';
import { outputProfileFault } from '../../shared/icc-profiles.js';

/** The rule that all output intents with a profile share one profile object, as each part numbers it. */
export const sameProfileRule = (at: Numbering, fix: string): Rule =>
  rule({
    ...at,
    object: 'outputIntents',
    check: 'output_intent_profile',
    says: 'When there are several output intents, all that have a /DestOutputProfile share the same profile object',
    fault: (intents) =>
      intents.distinctProfiles > 1
        ? `${intents.withProfile} output intents with ${intents.distinctProfiles} different profiles`
        : undefined,
    fix,
  });

const at = clauseTests(['ISO 19005-1'], '6.2.2');

/** ISO 19005-1, 6.2.2 Output intent. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.2',
    test: 1,
    object: 'outputIntent',
    check: 'output_intent_profile',
    says: 'A PDF/A-1 output intent has as /DestOutputProfile an ICC profile (version 2) of an output or display device in gray, RGB or CMYK',
    fault: outputProfileFault(3),
    fix: 'embed as the output intent\'s /DestOutputProfile an ICC version 2 output ("prtr") or display ("mntr") profile of gray, RGB or CMYK, such as sRGB IEC61966-2.1',
  }),
  sameProfileRule(
    at(2),
    'make every output intent refer to one and the same ICC profile object, or keep a single output intent',
  ),
];
export const reasons: Reason[] = [];
