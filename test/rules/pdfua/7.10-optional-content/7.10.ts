import type { FixturePairs } from '../../fixtures.js';
import { pdfuaFile, uaRef } from '../../pdfua-file.js';

const GROUP = '<< /Type /OCG /Name (Notes) >>';

/** A file with one optional content group, and `configuration` as its default configuration. */
const withConfiguration = (configuration: string, configs = '') =>
  pdfuaFile({
    catalog: `/OCProperties << /OCGs [${uaRef(0)}] /D << ${configuration} /Order [${uaRef(0)}] >>${configs} >>`,
    objects: [GROUP],
  });

export const fixtures: FixturePairs = {
  1: {
    pass: () => withConfiguration('/Name (Default)'),
    fail: () => withConfiguration('/Creator (Fixture)'),
  },
  2: {
    pass: () => withConfiguration('/Name (Default)'),
    fail: () =>
      withConfiguration(`/Name (Default) /AS [<< /Event /Print /Category [/Print] /OCGs [${uaRef(0)}] >>]`),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.10-1 every configuration of /Configs named too': () =>
    withConfiguration('/Name (Default)', ' /Configs [<< /Name (Print) /OFF [] >>]'),
};
