import type { Reason, Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { renderingIntentRule } from '../../part1/6.2-graphics/6.2.9.js';

const at = clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.2.6');

/** ISO 19005-2 and -3, 6.2.6 Rendering intents. */
export const rules: Rule[] = [
  renderingIntentRule(
    at(1),
    'use one of the four rendering intents of ISO 32000-1 (/RelativeColorimetric is the usual one)',
  ),
];
export const reasons: Reason[] = [];
