import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

/** Optional content with one group (object 8), its default configuration `d` and `configs`. */
const layered = (part: 1 | 2 | 3, d: string, configs = '') =>
  pdfaFile(part, {
    catalog: `/OCProperties << /OCGs [8 0 R] /D << ${d} >>${configs ? ` /Configs [${configs}]` : ''} >>`,
    objects: ['<< /Type /OCG /Name (Layer) >>'],
  });

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => layered(part, '/Name (Default) /Order [8 0 R]', '<< /Name (Other) >>'),
    // an empty name names nothing
    fail: (part) => layered(part, '/Name (Default) /Order [8 0 R]', '<< /Name () /Order [8 0 R] >>'),
  },
  2: {
    pass: (part) => layered(part, '/Name (Default) /Order [8 0 R]', '<< /Name (Other) >>'),
    fail: (part) => layered(part, '/Name (Default) /Order [8 0 R]', '<< /Name (Default) >>'),
  },
  3: {
    pass: (part) => layered(part, '/Name (Default) /Order [(Layers) [8 0 R]]'),
    fail: (part) => layered(part, '/Name (Default) /Order []'),
  },
  4: {
    pass: (part) => layered(part, '/Name (Default)'),
    fail: (part) =>
      layered(part, '/Name (Default) /AS [<< /Event /Print /Category [/Print] /OCGs [8 0 R] >>]'),
  },
};
