import type { FixturePairs } from '../../fixtures.js';
import { annotatedFile } from '../../pdfua-annotations.js';

const FILE = '/D << /Type /Filespec /F (talk.mp4) /UF (talk.mp4) >>';
/** A screen annotation, tagged and described, whose action plays the rendition `rendition`. */
const screen = (rendition: string) =>
  annotatedFile([
    {
      entries: `/Subtype /Screen /F 4 /Contents (A talk) /A << /S /Rendition /OP 0 /R ${rendition} >>`,
      tag: 'Annot',
    },
  ]);
const clip = (entries: string) => `<< /Type /MediaClip /S /MCD ${FILE} ${entries} >>`;
const media = (clipDict: string) => `<< /Type /Rendition /S /MR /C ${clipDict} >>`;

export const fixtures: FixturePairs = {
  1: {
    pass: () => screen(media(clip('/CT (video/mp4) /Alt [(en-US) (A talk on accessible PDF)]'))),
    fail: () => screen(media(clip('/Alt [(en-US) (A talk on accessible PDF)]'))),
  },
  2: {
    pass: () => screen(media(clip('/CT (video/mp4) /Alt [(en-US) (A talk on accessible PDF)]'))),
    fail: () => screen(media(clip('/CT (video/mp4) /Alt [(en-US) ()]'))),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.18.6.2 a clip described in two languages, one with no language named': () =>
    screen(media(clip('/CT (video/mp4) /Alt [(en-US) (A talk) () (Ein Vortrag)]'))),
  '7.18.6.2 a clip played through a selector and a media clip section': () =>
    screen(
      `<< /Type /Rendition /S /SR /R [${media(
        `<< /Type /MediaClip /S /MCS /D ${clip('/CT (video/mp4) /Alt [(en-US) (A talk)]')} >>`,
      )}] >>`,
    ),
};
