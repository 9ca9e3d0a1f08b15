import { rule, type Reason, type Rule } from '../../../rule.js';

// Like veraPDF, these judge the images the pages draw (image XObjects and inline images, with their masks
// and alternates), not those a resource dictionary holds unused.
const SPECS = ['ISO 19005-2', 'ISO 19005-3'] as const;
const BIT_DEPTHS = new Set([1, 2, 4, 8, 16]);

/** ISO 19005-2 and -3, 6.2.8 Image dictionaries. */
export const rules: Rule[] = [
  rule({
    specifications: SPECS,
    clause: '6.2.8',
    test: 1,
    object: 'image',
    check: 'image_dictionaries',
    says: 'An image dictionary has no Alternates entry',
    fault: (image) => (image.drawn && image.hasAlternates ? 'an /Alternates entry' : undefined),
    fix: 'remove the /Alternates entry from the image (keep only the image itself)',
  }),
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
  rule({
    specifications: SPECS,
    clause: '6.2.8',
    test: 4,
    object: 'image',
    check: 'image_dictionaries',
    says: 'An image (other than an explicit mask) has BitsPerComponent 1, 2, 4, 8 or 16, when the entry is there',
    fault: (image) =>
      image.drawn &&
      // a stencil mask (ImageMask) is an image here too; only an explicit mask (/Mask) is left to test 5
      image.role !== 'mask' &&
      image.bitsPerComponent !== undefined &&
      !BIT_DEPTHS.has(image.bitsPerComponent)
        ? `BitsPerComponent is ${image.bitsPerComponent}`
        : undefined,
    fix: 'convert the image to 1, 2, 4, 8 or 16 bits per component',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.8',
    test: 5,
    object: 'image',
    check: 'image_dictionaries',
    says: 'An image mask has BitsPerComponent 1, when the entry is there',
    fault: (image) =>
      image.drawn &&
      (image.imageMask || image.role === 'mask') &&
      image.bitsPerComponent !== undefined &&
      image.bitsPerComponent !== 1
        ? `an image mask with BitsPerComponent ${image.bitsPerComponent}`
        : undefined,
    fix: 'write the image mask with /BitsPerComponent 1 (or leave the entry out)',
  }),
];
export const reasons: Reason[] = [];
