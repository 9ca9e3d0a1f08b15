import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

const INTENTS = new Set(['RelativeColorimetric', 'AbsoluteColorimetric', 'Perceptual', 'Saturation']);

/** The rule of the rendering intents the pages use, as each part numbers it and says its fix. */
export const renderingIntentRule = (at: Numbering, fix: string): Rule =>
  rule({
    ...at,
    object: 'rendering_intent',
    check: 'rendering_intents',
    says: 'Every rendering intent is one of RelativeColorimetric, AbsoluteColorimetric, Perceptual, Saturation',
    // intents of what the pages draw: graphics states set, images painted, inline images and `ri`
    fault: (intent) =>
      intent.drawn && !INTENTS.has(intent.name)
        ? `the rendering intent /${intent.name} (${intent.source})`
        : undefined,
    fix,
  });

const at = clauseTests(['ISO 19005-1'], '6.2.9');

/** ISO 19005-1, 6.2.9 Rendering intents. */
export const rules: Rule[] = [
  renderingIntentRule(
    at(1),
    'use one of the four standard rendering intents (/RelativeColorimetric is the usual one)',
  ),
];
export const reasons: Reason[] = [];
