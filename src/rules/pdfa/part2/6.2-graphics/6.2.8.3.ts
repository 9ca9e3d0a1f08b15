import type { Jpeg2000Node } from '../../../../pdf/model/graphics.js';
import { rule, type Reason, type Rule } from '../../../rule.js';

// JPEG 2000 images the pages draw. Data without the JP2 signature, or without an image header, is not
// judged here (unknown is not a fault). An image dictionary's ColorSpace overrides the data's own colour
// specifications, so rules 2 to 4 ask nothing of an image that has one.
const SPECS = ['ISO 19005-2', 'ISO 19005-3'] as const;
const read = (jpx: Jpeg2000Node) => jpx.drawn && jpx.signature && jpx.components !== undefined;

/** The colour specification a reader uses: the one marked APPROX 1, or the only one. */
function inUse(jpx: Jpeg2000Node) {
  const approximate = jpx.colourSpecifications.filter((c) => c.approximation === 1);
  if (approximate.length > 0) return approximate[0];
  return jpx.colourSpecifications.length === 1 ? jpx.colourSpecifications[0] : undefined;
}

/** ISO 19005-2 and -3, 6.2.8.3 JPEG2000. */
export const rules: Rule[] = [
  rule({
    specifications: SPECS,
    clause: '6.2.8.3',
    test: 1,
    object: 'jpeg2000',
    check: 'jpeg2000_images',
    says: 'The JPEG 2000 data has 1, 3 or 4 colour channels',
    fault: (jpx) =>
      read(jpx) && jpx.components !== 1 && jpx.components !== 3 && jpx.components !== 4
        ? `${jpx.components} colour channels`
        : undefined,
    fix: 'encode the image with 1 (grey), 3 (RGB, Lab) or 4 (CMYK) channels',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.8.3',
    test: 2,
    object: 'jpeg2000',
    check: 'jpeg2000_images',
    says:
      'JPEG 2000 data with more than one colour specification (and no ColorSpace in the image dictionary) marks ' +
      'exactly one of them with APPROX 1',
    fault: (jpx) => {
      if (!read(jpx) || jpx.hasColorSpace) return undefined;
      const specs = jpx.colourSpecifications;
      const approximate = specs.filter((c) => c.approximation === 1).length;
      if (specs.length === 1 || approximate === 1) return undefined;
      return specs.length === 0
        ? 'no colour specification (colr box)'
        : `${specs.length} colour specifications, ${approximate} of them with APPROX 1`;
    },
    fix: 'keep one colour specification box in the JPEG 2000 data, or give the image a /ColorSpace',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.8.3',
    test: 3,
    object: 'jpeg2000',
    check: 'jpeg2000_images',
    says: 'The colour specification in use (the colr box) has METH 1, 2 or 3, unless the image has a ColorSpace',
    fault: (jpx) => {
      const spec = read(jpx) && !jpx.hasColorSpace ? inUse(jpx) : undefined;
      return spec && (spec.method < 1 || spec.method > 3)
        ? `a colour specification of METH ${spec.method}`
        : undefined;
    },
    fix: 'encode the colour space as enumerated (METH 1) or as an ICC profile (METH 2), or give the image a /ColorSpace',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.8.3',
    test: 4,
    object: 'jpeg2000',
    check: 'jpeg2000_images',
    says: 'The colour specification in use is not the enumerated space 19 (CIEJab), unless the image has a ColorSpace',
    fault: (jpx) => {
      const spec = read(jpx) && !jpx.hasColorSpace ? inUse(jpx) : undefined;
      return spec?.method === 1 && spec.enumeratedSpace === 19
        ? 'the enumerated colour space 19 (CIEJab)'
        : undefined;
    },
    fix: 'encode the image in another colour space than CIEJab, or give the image a /ColorSpace',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.8.3',
    test: 5,
    object: 'jpeg2000',
    check: 'jpeg2000_images',
    says: 'Every channel of the JPEG 2000 data has the same bit depth, from 1 to 38',
    fault: (jpx) =>
      !read(jpx)
        ? undefined
        : jpx.bitDepthVaries || jpx.bitsPerComponentBox
          ? 'channels of different bit depths (a bpcc box)'
          : jpx.bitDepth === undefined || jpx.bitDepth < 1 || jpx.bitDepth > 38
            ? `a bit depth of ${jpx.bitDepth ?? 'unknown'}`
            : undefined,
    fix: 'encode every channel of the image at the same bit depth',
  }),
];
export const reasons: Reason[] = [];
