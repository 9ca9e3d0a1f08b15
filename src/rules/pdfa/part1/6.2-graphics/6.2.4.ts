import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

// Like veraPDF, these judge the images and XObjects the pages draw (their content, forms, glyphs, patterns,
// soft masks and annotation appearances), not those a resource dictionary holds unused.

/** The rule that a drawn image has no /Alternates, as each part numbers it. */
export const noAlternatesRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'image',
    check: 'image_dictionaries',
    says: 'An image dictionary has no Alternates entry',
    fault: (image) => (image.drawn && image.hasAlternates ? 'an /Alternates entry' : undefined),
    fix: 'remove the /Alternates entry from the image (keep only the image itself)',
  });

/** What each part allows an image's BitsPerComponent to be, and says and fixes it in its words. */
export interface BitDepthWording {
  bitDepths: ReadonlySet<number>;
  says: string;
  fix: string;
}

/** The rule of an image's (other than an explicit mask's) BitsPerComponent, as each part numbers it. */
export const imageBitDepthRule = (at: Numbering, wording: BitDepthWording): Rule =>
  rule({
    ...at,
    object: 'image',
    check: 'image_dictionaries',
    says: wording.says,
    fault: (image) =>
      image.drawn &&
      // a stencil mask (ImageMask) is an image here too; only an explicit mask (/Mask) is left to test 5
      image.role !== 'mask' &&
      image.bitsPerComponent !== undefined &&
      !wording.bitDepths.has(image.bitsPerComponent)
        ? `BitsPerComponent is ${image.bitsPerComponent}`
        : undefined,
    fix: wording.fix,
  });

/** The rule that an image mask has BitsPerComponent 1, as each part numbers it. */
export const maskBitDepthRule = (at: Numbering): Rule =>
  rule({
    ...at,
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
  });

const PART1 = ['ISO 19005-1'] as const;

const at = clauseTests(PART1, '6.2.4');

/** ISO 19005-1, 6.2.4 Image XObjects. */
export const rules: Rule[] = [
  noAlternatesRule(at(1)),
  rule({
    specifications: PART1,
    clause: '6.2.4',
    test: 2,
    object: 'xobject',
    check: 'image_dictionaries',
    says: 'An XObject dictionary (image or form) has no OPI entry',
    fault: (xobject) => (xobject.drawn && xobject.hasOpi ? 'an /OPI entry' : undefined),
    fix: 'remove the /OPI entry (Open Prepress Interface proxies are not allowed in PDF/A)',
  }),
  rule({
    specifications: PART1,
    clause: '6.2.4',
    test: 3,
    object: 'image',
    check: 'image_dictionaries',
    says: 'An image dictionary that has an Interpolate entry sets it to false',
    fault: (image) => (image.drawn && image.interpolate === true ? 'Interpolate is true' : undefined),
    fix: 'set /Interpolate false on the image, or remove the entry',
  }),
  imageBitDepthRule(at(4), {
    bitDepths: new Set([1, 2, 4, 8]),
    says: 'An image (other than an explicit mask) has BitsPerComponent 1, 2, 4 or 8, when the entry is there',
    fix: 'convert the image to 1, 2, 4 or 8 bits per component (16-bit images are not allowed in PDF/A-1)',
  }),
  maskBitDepthRule(at(5)),
];
export const reasons: Reason[] = [];
