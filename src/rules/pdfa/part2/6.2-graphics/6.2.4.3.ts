import type { DeviceColorNode } from '../../../../pdf/model/color.js';
import { rule, type Reason, type Rule } from '../../../rule.js';

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

/** ISO 19005-2 and -3, 6.2.4.3 Uncalibrated (device) colour spaces. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.4.3',
    test: 2,
    object: 'deviceColor',
    check: 'output_intent',
    says: 'DeviceRGB is used only under a PDF/A output intent of an RGB profile (or where a DefaultRGB replaces it)',
    fault: (color) =>
      color.space === 'DeviceRGB' && uncovered(color, 'RGB')
        ? `${used(color)}, and ${intent(color)}`
        : undefined,
    fix: 'convert the DeviceRGB colour to an ICC-based colour space, or give the file a GTS_PDFA1 output intent with an RGB profile',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.4.3',
    test: 3,
    object: 'deviceColor',
    check: 'output_intent',
    says: 'DeviceCMYK is used only under a PDF/A output intent of a CMYK profile (or where a DefaultCMYK replaces it)',
    fault: (color) =>
      color.space === 'DeviceCMYK' && uncovered(color, 'CMYK')
        ? `${used(color)}, and ${intent(color)}`
        : undefined,
    fix: 'convert the DeviceCMYK colour to an ICC-based colour space, or give the file a GTS_PDFA1 output intent with a CMYK profile',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.4.3',
    test: 4,
    object: 'deviceColor',
    check: 'output_intent',
    says: 'DeviceGray is used only in a file with a PDF/A output intent (or where a DefaultGray replaces it)',
    fault: (color) =>
      color.space === 'DeviceGray' && color.replacedBy === undefined && !color.pdfaOutputIntent
        ? `${used(color)}, and no PDF/A output intent`
        : undefined,
    fix: 'give the file a GTS_PDFA1 output intent with an ICC profile, or convert the gray colour to an ICC-based colour space',
  }),
];
export const reasons: Reason[] = [];
