import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, ref, stream } from '../../../pdfa-file.js';

/** A page painted in a DeviceN space of `count` colorants, with an RGB alternate. */
const deviceN = (count: number) => {
  const colorants = Array.from({ length: count }, (_, i) => `/Spot${i + 1}`).join(' ');
  const domain = Array.from({ length: count }, () => '0 1').join(' ');
  return pdfaFile(1, {
    resources: `/ColorSpace << /CS0 [/DeviceN [${colorants}] /DeviceRGB ${ref(0)}] >>`,
    content: `/CS0 cs ${Array.from({ length: count }, () => '0').join(' ')} sc\n10 10 100 100 re\nf\n`,
    // a PostScript calculator function: drops the tints, answers white
    objects: [
      stream(`/FunctionType 4 /Domain [${domain}] /Range [0 1 0 1 0 1]`, `{ ${'pop '.repeat(count)}1 1 1 }`),
    ],
  });
};

export const fixtures: FixturePairs = {
  9: { pass: () => deviceN(8), fail: () => deviceN(9) },
};
