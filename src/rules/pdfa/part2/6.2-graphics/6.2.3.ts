import type { OutputIntentNode } from '../../../../pdf/model/color.js';
import { rule, type Reason, type Rule } from '../../../rule.js';

/** What is wrong with an output intent's profile for PDF/A-2: an output or display profile before version 5. */
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
  if ((profile.version ?? 0) >= 5) faults.push(`version ${profile.version?.toFixed(1) ?? ''}`);
  return faults.length > 0 ? `a profile of ${faults.join(', ')}` : undefined;
}

/** ISO 19005-2 and -3, 6.2.3 Output intent. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.3',
    test: 1,
    object: 'outputIntent',
    check: 'output_intent_profile',
    says: 'An output intent\'s /DestOutputProfile is an output ("prtr") or display ("mntr") ICC profile of gray, RGB or CMYK',
    fault: outputProfileFault,
    fix: 'embed as the output intent\'s /DestOutputProfile an output ("prtr") or display ("mntr") ICC profile of gray, RGB or CMYK, such as sRGB IEC61966-2.1',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.3',
    test: 2,
    object: 'outputIntents',
    check: 'output_intent_profile',
    says: 'When there are several output intents, all that have a /DestOutputProfile share the same profile object',
    fault: (intents) =>
      intents.distinctProfiles > 1
        ? `${intents.withProfile} output intents with ${intents.distinctProfiles} different profiles`
        : undefined,
    fix: 'make every output intent (PDF/A, PDF/X, PDF/E) refer to one and the same ICC profile object',
  }),
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
