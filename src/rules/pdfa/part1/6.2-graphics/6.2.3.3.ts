import type { DeviceColorNode } from '../../../../pdf/model/color.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type ClauseTests, type Numbering } from '../../shared/numbering.js';

const intent = (color: DeviceColorNode) =>
  color.pdfaOutputIntent
    ? `the PDF/A output intent is ${color.pdfaOutputColorSpace ?? ''}`
    : 'no PDF/A output intent';
/** The device space is not replaced, and the output intent is not of `space` (an unreadable one is unknown). */
const uncovered = (color: DeviceColorNode, space: string) =>
  color.replacedBy === undefined &&
  (!color.pdfaOutputIntent || (color.pdfaOutputColorSpace !== null && color.pdfaOutputColorSpace !== space));
const used = (color: DeviceColorNode) =>
  `${color.space}${color.via ? ` (in ${color.via})` : ''} for ${color.use}`;

/** The rule of DeviceRGB or DeviceCMYK: used only under an output intent of its kind, or replaced by a default space. */
const colourDeviceRule = (at: Numbering, space: 'RGB' | 'CMYK', article: string, intentName: string): Rule =>
  rule({
    ...at,
    object: 'deviceColor',
    check: 'output_intent',
    says: `Device${space} is used only under a ${intentName} output intent of ${article} ${space} profile (or where a Default${space} replaces it)`,
    fault: (color) =>
      color.space === `Device${space}` && uncovered(color, space)
        ? `${used(color)}, and ${intent(color)}`
        : undefined,
    fix: `convert the Device${space} colour to an ICC-based colour space, or give the file a GTS_PDFA1 output intent with ${article} ${space} profile`,
  });

/**
 * The uncalibrated colour space rules (DeviceRGB, DeviceCMYK, DeviceGray, numbered from `firstTest`), as each part
 * numbers them; `intentName` is the output intent the part's sentences name ("PDF/A-1", "PDF/A").
 */
export const deviceColorRules = (at: ClauseTests, firstTest: number, intentName: string): Rule[] => [
  colourDeviceRule(at(firstTest), 'RGB', 'an', intentName),
  colourDeviceRule(at(firstTest + 1), 'CMYK', 'a', intentName),
  rule({
    ...at(firstTest + 2),
    object: 'deviceColor',
    check: 'output_intent',
    says: `DeviceGray is used only in a file with a ${intentName} output intent (or where a DefaultGray replaces it)`,
    fault: (color) =>
      color.space === 'DeviceGray' && color.replacedBy === undefined && !color.pdfaOutputIntent
        ? `${used(color)}, and no PDF/A output intent`
        : undefined,
    fix: 'give the file a GTS_PDFA1 output intent with an ICC profile, or convert the gray colour to an ICC-based colour space',
  }),
];

/** ISO 19005-1, 6.2.3.3 Uncalibrated colour spaces. */
export const rules: Rule[] = deviceColorRules(clauseTests(['ISO 19005-1'], '6.2.3.3'), 1, 'PDF/A-1');
export const reasons: Reason[] = [];
