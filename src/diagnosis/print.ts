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

/**
 * What each check rests on. The print profile is this service's own, not a standard's: no check has a
 * clause, and a check a PDF/X part (ISO 15930) also asks for says so here without one (the service does
 * not hold the file to PDF/X). report.html shows it where the other profiles show their clauses.
 */
export const PRINT_BASIS: Readonly<Record<string, string>> = {
  pages_readable: 'A page that cannot be read can be neither checked nor printed',
  image_resolution_critical: 'Print practice: under half of min_ppi an image prints visibly coarse',
  image_resolution:
    'Print practice: images at min_ppi (PRINT_MIN_PPI unless the run sets it) at their printed size',
  fonts_embedded: 'Every PDF/X part (ISO 15930) asks for embedded fonts; a printer substitutes a missing one',
  rgb_in_cmyk_job:
    'PDF/X-1a (ISO 15930-1) allows no RGB; in a CMYK job RGB is converted with a profile not chosen',
  trim_and_bleed: 'PDF/X (ISO 15930) asks for a TrimBox or ArtBox; 3 mm of bleed is print-shop practice',
  transparency: 'PDF/X-1a and PDF/X-3 allow no transparency; PDF/X-4 does, and the RIP flattens it',
  spot_colors: 'Each spot colour is a printing plate of its own, which the print shop needs to know of',
};

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
        fail: ([images]) =>
          `Images placed ${range}: ${images}. Use images of at least ${minPpi} ppi at their printed size, ` +
          'or place them smaller',
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
            fail: ([images]) =>
              `RGB or Lab images in a CMYK job: ${images}. Convert them to CMYK with the print shop's ` +
              'profile before the PDF is made, or the shop converts them as it sees fit',
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
        fail: ([problems]) =>
          `Print boxes missing or short: ${problems}. Set the TrimBox to the finished size and extend the ` +
          'artwork 3 mm beyond it into the BleedBox (the "bleed" of the PDF export settings)',
      },
    ),
    pageCheck(facts, 'transparency', 'info', (p) => (p.transparency ? ['transparency'] : []), {
      pass: 'No transparency',
      fail: () =>
        'Pages use transparency (soft masks, blend modes or alpha): flattening may change them. Send ' +
        'PDF/X-4, which keeps transparency, or check a flattened proof',
    }),
    spots.length === 0
      ? pass('spot_colors', 'info', 'No spot colours')
      : fail(
          'spot_colors',
          'info',
          `Spot colours: ${spots.join(', ')}. Each prints on a plate of its own; convert any that should ` +
            'print in CMYK',
          okPages(facts)
            .filter((p) => p.spot_colors.length > 0)
            .map((p) => p.page),
        ),
  ];
}
