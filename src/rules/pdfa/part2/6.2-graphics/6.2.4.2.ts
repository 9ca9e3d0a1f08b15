import { rule, type Reason, type Rule } from '../../../rule.js';
import { inputProfileFault } from '../../shared/icc-profiles.js';

/** ISO 19005-2 and -3, 6.2.4.2 ICCBased colour spaces. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.4.2',
    test: 1,
    object: 'iccProfile',
    check: 'icc_profiles',
    says: 'An ICCBased colour space embeds an ICC profile (ICC.1:1998-09 to ISO 15076-1) of an input, display, output or colour space class, in gray, RGB, CMYK or Lab',
    fault: inputProfileFault(5),
    fix: 'embed an ICC profile of version 2 or 4 of class scnr, mntr, prtr or spac in the ICCBased colour space',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.4.2',
    test: 2,
    object: 'iccCmykPaint',
    check: 'overprint_mode',
    says: 'Overprint mode 1 is not in force where an ICCBased CMYK colour space paints with overprinting on',
    fault: (paint) =>
      paint.overprint && paint.overprintMode === 1
        ? `ICCBased CMYK ${paint.use} with overprint on and overprint mode 1`
        : undefined,
    fix: 'set /OPM 0 in the ExtGState used with ICCBased CMYK colour and overprinting, or turn overprinting off there',
  }),
];
export const reasons: Reason[] = [];
