import type { RunOptions } from '../store/types.js';
import {
  type Draft,
  type Facts,
  fail,
  fontsEmbedded,
  notApplicable,
  okPages,
  pageCheck,
  pagesReadable,
  pass,
  type ProfileSettings,
  type Severity,
} from './checks.js';

/** `pdf-print`: what a print shop asks of a file before it goes to press. */

/** Bleed a print shop wants beyond the trim on every side: 3 mm, in points. */
const MIN_BLEED_PT = (3 / 25.4) * 72;

export function printChecks(facts: Facts, options: RunOptions, settings: ProfileSettings): Draft[] {
  const minPpi = options.min_ppi ?? settings.printMinPpi;
  const doc = facts.document;
  const cmykJob = options.cmyk === true || doc.output_intents.some((intent) => intent.components === 4);
  // each image is judged once: under half of min_ppi it is the error's, between half and min_ppi the warning's
  const resolution = (id: string, severity: Severity, under: number, atLeast: number) => {
    const range = atLeast > 0 ? `from ${atLeast} to under ${under} ppi` : `under ${under} ppi`;
    return pageCheck(
      facts,
      id,
      severity,
      (p) =>
        p.images
          .filter((i) => i.dpi !== null && i.dpi < under && i.dpi >= atLeast)
          .map((i) => `${i.width_px}x${i.height_px} px at ${i.dpi} ppi`),
      {
        pass: `No image is placed ${range}`,
        fail: ([images]) => `Images placed ${range}: ${images}`,
      },
    );
  };
  const spots = doc.spot_colors;
  return [
    pagesReadable(facts),
    resolution('image_resolution_critical', 'error', minPpi / 2, 0),
    resolution('image_resolution', 'warning', minPpi, minPpi / 2),
    fontsEmbedded(facts),
    cmykJob
      ? pageCheck(
          facts,
          'rgb_in_cmyk_job',
          'warning',
          (p) =>
            p.images
              .filter(
                (i) =>
                  i.color_space === 'rgb' ||
                  i.color_space === 'lab' ||
                  (i.color_space === 'icc' && i.icc_components === 3),
              )
              .map((i) => `${i.color_space} ${i.width_px}x${i.height_px} px`),
          {
            pass: 'No RGB or Lab images in a CMYK job',
            fail: ([images]) => `RGB or Lab images in a CMYK job: ${images}`,
          },
        )
      : notApplicable(
          'rgb_in_cmyk_job',
          'warning',
          'The job is not CMYK (no CMYK output intent, no cmyk option)',
        ),
    pageCheck(
      facts,
      'trim_and_bleed',
      'warning',
      (p) => {
        const { crop, trim, bleed } = p.boxes!;
        if (trim.every((v, i) => v === crop[i])) return ['no TrimBox'];
        const [t0, t1, t2, t3] = trim as [number, number, number, number];
        const [b0, b1, b2, b3] = bleed as [number, number, number, number];
        const margins = [t0 - b0, t1 - b1, b2 - t2, b3 - t3];
        return margins.some((m) => m < MIN_BLEED_PT - 0.01)
          ? ['BleedBox less than 3 mm beyond the TrimBox']
          : [];
      },
      {
        pass: 'Every page has a TrimBox with 3 mm of bleed around it',
        fail: ([problems]) => `Pages without print boxes: ${problems}`,
      },
    ),
    pageCheck(facts, 'transparency', 'info', (p) => (p.transparency ? ['transparency'] : []), {
      pass: 'No transparency',
      fail: () => 'Pages use transparency (soft masks, blend modes or alpha): flattening may change them',
    }),
    spots.length === 0
      ? pass('spot_colors', 'info', 'No spot colours')
      : fail(
          'spot_colors',
          'info',
          `Spot colours: ${spots.join(', ')}`,
          okPages(facts)
            .filter((p) => p.spot_colors.length > 0)
            .map((p) => p.page),
        ),
  ];
}
