import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, ref, stream } from '../../../pdfa-file.js';

/** A page painted in a DeviceN space of `count` spot colorants, each with its /Colorants entry. */
const deviceN = (part: 1 | 2 | 3, count: number) => {
  const names = Array.from({ length: count }, (_, i) => `/Spot${i + 1}`);
  const colorants = names.map((name) => `${name} [/Separation ${name} /DeviceRGB ${ref(1)}]`).join(' ');
  const domain = names.map(() => '0 1').join(' ');
  return pdfaFile(part, {
    resources: `/ColorSpace << /CS0 [/DeviceN [${names.join(' ')}] /DeviceRGB ${ref(0)} << /Colorants << ${colorants} >> >>] >>`,
    content: `/CS0 cs ${names.map(() => '0').join(' ')} sc\n10 10 100 100 re\nf\n`,
    objects: [
      stream(`/FunctionType 4 /Domain [${domain}] /Range [0 1 0 1 0 1]`, `{ ${'pop '.repeat(count)}1 1 1 }`),
      '<< /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [0 0 1] /N 1 >>',
    ],
  });
};

export const fixtures: FixturePairs = {
  9: { pass: (part) => deviceN(part, 32), fail: (part) => deviceN(part, 33) },
};
