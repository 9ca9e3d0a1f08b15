import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { imageBitDepthRule, maskBitDepthRule, noAlternatesRule } from '../../part1/6.2-graphics/6.2.4.js';

// Like veraPDF, these judge the images the pages draw (image XObjects and inline images, with their masks
// and alternates), not those a resource dictionary holds unused.
const SPECS = ['ISO 19005-2', 'ISO 19005-3'] as const;

const at = clauseTests(SPECS, '6.2.8');

/** ISO 19005-2 and -3, 6.2.8 Image dictionaries. */
export const rules: Rule[] = [
  noAlternatesRule(at(1)),
  rule({
    specifications: SPECS,
    clause: '6.2.8',
    test: 2,
    object: 'image',
    check: 'image_dictionaries',
    says: 'An image dictionary has no OPI entry',
    fault: (image) => (image.drawn && image.hasOpi ? 'an /OPI entry' : undefined),
    fix: 'remove the /OPI entry (Open Prepress Interface proxies are not allowed in PDF/A)',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.8',
    test: 3,
    object: 'image',
    check: 'image_dictionaries',
    says: 'An image dictionary that has an Interpolate entry (an inline image: I) sets it to false',
    fault: (image) =>
      image.drawn && image.interpolate === true ? `${image.inline ? 'I' : 'Interpolate'} is true` : undefined,
    fix: 'set /Interpolate false on the image (/I false on an inline image), or remove the entry',
  }),
  imageBitDepthRule(at(4), {
    bitDepths: new Set([1, 2, 4, 8, 16]),
    says: 'An image (other than an explicit mask) has BitsPerComponent 1, 2, 4, 8 or 16, when the entry is there',
    fix: 'convert the image to 1, 2, 4, 8 or 16 bits per component',
  }),
  maskBitDepthRule(at(5)),
];
export const reasons: Reason[] = [];
