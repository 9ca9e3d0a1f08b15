import { rule, type Reason, type Rule } from '../../../rule.js';
import { inputProfileFault } from '../../shared/icc-profiles.js';

/** The components a profile of each colour space has (ISO 32000-1, 8.6.5.5: N is 1, 3 or 4). */
const COMPONENTS: Readonly<Record<string, number>> = { GRAY: 1, RGB: 3, Lab: 3, CMYK: 4 };

/** ISO 19005-1, 6.2.3.2 ICCBased colour spaces. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.3.2',
    test: 1,
    object: 'iccProfile',
    check: 'icc_profiles',
    says: 'An ICCBased colour space embeds an ICC version 2 profile of an input, display, output or colour space class, in gray, RGB, CMYK or Lab',
    fault: inputProfileFault(3),
    fix: 'embed an ICC version 2 profile (ICC.1:1998-09) in the ICCBased colour space, or convert its colours to one that has such a profile',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.3.2',
    test: 2,
    object: 'iccProfile',
    check: 'icc_profiles',
    says: "An ICC profile stream's /N is the number of components of the profile's colour space (1, 3 or 4)",
    fault: (profile) => {
      if (!profile.readable) return undefined;
      const expected = COMPONENTS[profile.colorSpace ?? ''];
      if (profile.components === null) return 'a profile stream without /N';
      return profile.components === expected
        ? undefined
        : `/N ${profile.components} for a profile of colour space "${profile.colorSpace ?? ''}"`;
    },
    fix: "set the ICC profile stream's /N to its colour space's number of components (1 for gray, 3 for RGB or Lab, 4 for CMYK)",
  }),
];
export const reasons: Reason[] = [];
