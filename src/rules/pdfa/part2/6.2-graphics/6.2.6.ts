import { rule, type Reason, type Rule } from '../../../rule.js';

const INTENTS = new Set(['RelativeColorimetric', 'AbsoluteColorimetric', 'Perceptual', 'Saturation']);

/** ISO 19005-2 and -3, 6.2.6 Rendering intents. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.6',
    test: 1,
    object: 'rendering_intent',
    check: 'rendering_intents',
    says: 'Every rendering intent is one of RelativeColorimetric, AbsoluteColorimetric, Perceptual, Saturation',
    // intents of what the pages draw: graphics states set, images painted, inline images and `ri`
    fault: (intent) =>
      intent.drawn && !INTENTS.has(intent.name)
        ? `the rendering intent /${intent.name} (${intent.source})`
        : undefined,
    fix: 'use one of the four rendering intents of ISO 32000-1 (/RelativeColorimetric is the usual one)',
  }),
];
export const reasons: Reason[] = [];
