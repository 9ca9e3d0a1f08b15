import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, ref } from '../../../pdfa-file.js';

const TINT = '<< /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [1 0 0] /N 1 >>';

/** A page painted in a DeviceN space of one spot colour, with or without its /Colorants entry. */
const spotDeviceN = (part: 1 | 2 | 3, colorants: boolean) =>
  pdfaFile(part, {
    resources: `/ColorSpace << /CS0 [/DeviceN [/Spot] /DeviceRGB ${ref(0)}${colorants ? ` << /Colorants << /Spot [/Separation /Spot /DeviceRGB ${ref(0)}] >> >>` : ''}] >>`,
    content: '/CS0 cs 1 sc\n10 10 100 100 re\nf\n',
    objects: [TINT],
  });

/**
 * Two Separation spaces of one name, both painted: the second indirect with a direct copy of the first's
 * tint transform (the same, as objects), or with another alternate space.
 */
const twoSeparations = (part: 1 | 2 | 3, same: boolean) =>
  pdfaFile(part, {
    resources: `/ColorSpace << /CS0 [/Separation /Spot /DeviceRGB ${ref(0)}] /CS1 ${ref(1)} >>`,
    content: '/CS0 cs 1 sc\n10 10 100 100 re\nf\n/CS1 cs 1 sc\n20 20 100 100 re\nf\n',
    objects: [TINT, `[/Separation /Spot ${same ? '/DeviceRGB' : '/DeviceGray'} ${TINT}]`],
  });

export const fixtures: FixturePairs = {
  1: { pass: (part) => spotDeviceN(part, true), fail: (part) => spotDeviceN(part, false) },
  2: { pass: (part) => twoSeparations(part, true), fail: (part) => twoSeparations(part, false) },
};
