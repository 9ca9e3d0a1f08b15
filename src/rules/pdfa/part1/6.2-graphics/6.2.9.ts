import { rule, type Reason, type Rule } from '../../../rule.js';

const INTENTS = new Set(['RelativeColorimetric', 'AbsoluteColorimetric', 'Perceptual', 'Saturation']);

/** ISO 19005-1, 6.2.9 Rendering intents. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.9',
    test: 1,
    object: 'rendering_intent',
    check: 'rendering_intents',
    says: 'Every rendering intent is one of RelativeColorimetric, AbsoluteColorimetric, Perceptual, Saturation',
    // intents of what the pages draw: graphics states set, images painted, inline images and `ri`
    fault: (intent) =>
      intent.drawn && !INTENTS.has(intent.name)
        ? `the rendering intent /${intent.name} (${intent.source})`
        : undefined,
    fix: 'use one of the four standard rendering intents (/RelativeColorimetric is the usual one)',
  }),
];
export const reasons: Reason[] = [];
