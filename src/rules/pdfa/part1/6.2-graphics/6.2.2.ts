import type { OutputIntentNode } from '../../../../pdf/model/color.js';
import { rule, type Reason, type Rule } from '../../../rule.js';

/** What is wrong with an output intent's profile for PDF/A-1: an output or display profile of version 2. */
function outputProfileFault(intent: OutputIntentNode): string | undefined {
  const profile = intent.profile;
  if (!profile)
    return intent.subtype === 'GTS_PDFA1' ? 'a PDF/A output intent without /DestOutputProfile' : undefined;
  if (!profile.decoded) return undefined; // a filter this reader lacks: unknown, not wrong
  if (!profile.readable) return 'a /DestOutputProfile that is not an ICC profile';
  const faults: string[] = [];
  if (profile.deviceClass !== 'prtr' && profile.deviceClass !== 'mntr')
    faults.push(`device class "${profile.deviceClass ?? ''}"`);
  if (!['RGB', 'CMYK', 'GRAY'].includes(profile.colorSpace ?? ''))
    faults.push(`colour space "${profile.colorSpace ?? ''}"`);
  if ((profile.version ?? 0) >= 3) faults.push(`version ${profile.version?.toFixed(1) ?? ''}`);
  return faults.length > 0 ? `a profile of ${faults.join(', ')}` : undefined;
}

/** ISO 19005-1, 6.2.2 Output intent. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.2',
    test: 1,
    object: 'outputIntent',
    check: 'output_intent_profile',
    says: 'A PDF/A-1 output intent has as /DestOutputProfile an ICC profile (version 2) of an output or display device in gray, RGB or CMYK',
    fault: outputProfileFault,
    fix: 'embed as the output intent\'s /DestOutputProfile an ICC version 2 output ("prtr") or display ("mntr") profile of gray, RGB or CMYK, such as sRGB IEC61966-2.1',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.2',
    test: 2,
    object: 'outputIntents',
    check: 'output_intent_profile',
    says: 'When there are several output intents, all that have a /DestOutputProfile share the same profile object',
    fault: (intents) =>
      intents.distinctProfiles > 1
        ? `${intents.withProfile} output intents with ${intents.distinctProfiles} different profiles`
        : undefined,
    fix: 'make every output intent refer to one and the same ICC profile object, or keep a single output intent',
  }),
];
export const reasons: Reason[] = [];
