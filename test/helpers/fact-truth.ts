import { execFileSync } from 'node:child_process';
import type { Schemas } from '../../src/contract/schemas.js';

/**
 * What poppler and qpdf say of a PDF, as the ground truth of the preflight facts, and how far a report agrees
 * with it, fact by fact. scripts/record-fact-truth.mts records it for the repository's PDFs
 * (test/fixtures/pdfs/facts-truth.json); the bench records it live for whatever set it diagnoses.
 * - pdfimages -list: per image (smask rows left out) its page, color, comp, bpc and enc columns;
 * - pdffonts: per font its name, emb, sub and uni columns;
 * - pdfinfo: Optimized (linearized), Tagged (MarkInfo), every page's boxes (-box), the XMP (-meta) claims;
 * - qpdf --json: the catalog's StructTreeRoot, /Lang, /ViewerPreferences /DisplayDocTitle, /OutputIntents,
 *   the structure tree's Figure elements, and the embedded files (--list-attachments).
 */

const run = (command: string, args: string[]) => {
  try {
    return execFileSync(command, args, {
      encoding: 'latin1',
      maxBuffer: 256 * 2 ** 20,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    // qpdf's exit code 3 is "succeeded with warnings": a damaged file it repaired (an FOP example of the
    // bench's Debian set has a broken xref), whose JSON is whole
    const failed = error as { status?: number; stdout?: string };
    if (command === 'qpdf' && failed.status === 3 && failed.stdout) return failed.stdout;
    throw error;
  }
};

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function qpdfObjects(file: string) {
  const parsed = JSON.parse(run('qpdf', ['--json=2', '--json-key=qpdf', '--decode-level=none', file])) as {
    qpdf: [unknown, Record<string, { value?: Json; stream?: { dict: Json } }>];
  };
  const objects = parsed.qpdf[1];
  const resolve = (value: Json | undefined, hops = 0): Json | undefined => {
    if (typeof value === 'string' && /^\d+ \d+ R$/.test(value) && hops < 32) {
      const object = objects[`obj:${value}`];
      return resolve(object?.value ?? object?.stream?.dict, hops + 1);
    }
    return value;
  };
  const trailer = objects.trailer?.value as Record<string, Json>;
  return { resolve, catalog: resolve(trailer['/Root']) as Record<string, Json> };
}

const text = (value: Json | undefined) =>
  typeof value === 'string' && value.startsWith('u:') ? value.slice(2) : null;

export function catalogTruth(file: string) {
  const { resolve, catalog } = qpdfObjects(file);
  const viewer = resolve(catalog['/ViewerPreferences']) as Record<string, Json> | undefined;
  const intents = (resolve(catalog['/OutputIntents']) as Json[] | undefined) ?? [];
  const root = resolve(catalog['/StructTreeRoot']) as Record<string, Json> | undefined;
  const roleMap = (resolve(root?.['/RoleMap']) as Record<string, Json> | undefined) ?? {};
  let figures = 0;
  let withoutAlt = 0;
  const seen = new Set<string>();
  const stack: (Json | undefined)[] = [root?.['/K']];
  while (stack.length) {
    const raw = stack.pop();
    if (typeof raw === 'string' && raw.endsWith(' R')) {
      if (seen.has(raw)) continue;
      seen.add(raw);
    }
    const node = resolve(raw);
    if (Array.isArray(node)) stack.push(...node);
    else if (node && typeof node === 'object') {
      if (node['/Type'] === '/MCR' || node['/Type'] === '/OBJR') continue;
      let role = node['/S'] as string | undefined;
      for (let i = 0; i < 8 && role && roleMap[role] && roleMap[role] !== role; i++)
        role = roleMap[role] as string;
      if (role === '/Figure') {
        figures++;
        const alt = text(resolve(node['/Alt'])) ?? text(resolve(node['/ActualText']));
        if (!('/Alt' in node || '/ActualText' in node) || alt?.trim() === '') withoutAlt++;
      }
      stack.push(node['/K']);
    }
  }
  const attachments = run('qpdf', ['--list-attachments', file]);
  return {
    struct_tree: root !== undefined,
    language: text(resolve(catalog['/Lang'])),
    display_doc_title: resolve(viewer?.['/DisplayDocTitle']) === true,
    output_intents: intents.map((entry) => {
      const intent = resolve(entry) as Record<string, Json>;
      return {
        subtype: String(intent['/S']).slice(1),
        identifier: text(resolve(intent['/OutputConditionIdentifier'])),
      };
    }),
    struct_figures: figures,
    struct_figures_without_alt: withoutAlt,
    embedded_files: /has no embedded files/.test(attachments)
      ? 0
      : attachments
          .trim()
          .split('\n')
          .filter((l) => / -> /.test(l)).length,
  };
}

export function popplerTruth(file: string, pages: number) {
  const info = run('pdfinfo', ['-box', '-f', '1', '-l', String(pages), file]);
  const boxes: Record<number, Record<string, number[]>> = {};
  for (const m of info.matchAll(/^Page\s+(\d+) (Media|Crop|Bleed|Trim|Art)Box:\s+(.*)$/gm)) {
    (boxes[Number(m[1])] ??= {})[m[2]!.toLowerCase()] = m[3]!.trim().split(/\s+/).map(Number);
  }
  const meta = run('pdfinfo', ['-meta', file]);
  const claim = (prefix: string, property: string) =>
    new RegExp(`${prefix}:${property}\\s*(?:=\\s*["']([^"']*)["']|>([^<]*)<)`)
      .exec(meta)
      ?.slice(1)
      .find(Boolean) ?? null;
  const part = claim('pdfaid', 'part');
  const images = run('pdfimages', ['-list', file])
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((c) => c.length > 8 && c[2] !== 'smask')
    .map((c) => ({ page: Number(c[0]), color: c[5], comp: Number(c[6]), bpc: Number(c[7]), enc: c[8] }));
  // pdffonts lists the fonts of the pages' resources; pdftohtml names those text is drawn with (the report's)
  const drawn = new Set(
    [
      ...run('pdftohtml', ['-xml', '-i', '-q', '-stdout', '-fontfullname', file]).matchAll(
        /family="([^"]*)"/g,
      ),
    ].map((m) => m[1]!),
  );
  const fonts = run('pdffonts', [file])
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const c = line.trim().split(/\s+/);
      // name ... emb sub uni num gen: the last five columns; a Type 3 font without a name is drawn unnamed
      const drawnWith = c[0] === '[none]' || drawn.has(c[0]!);
      return {
        name: c[0]!,
        emb: c.at(-5) === 'yes',
        sub: c.at(-4) === 'yes',
        uni: c.at(-3) === 'yes',
        drawn: drawnWith,
      };
    });
  return {
    linearized: /^Optimized:\s+yes/m.test(info),
    marked: /^Tagged:\s+yes/m.test(info),
    pdfa: part ? `${part}${(claim('pdfaid', 'conformance') ?? '').toUpperCase()}` : null,
    pdfua: claim('pdfuaid', 'part'),
    boxes,
    images,
    fonts,
  };
}

export type FactTruth = { pages: number } & ReturnType<typeof popplerTruth> & ReturnType<typeof catalogTruth>;

/** The truth of `file`, or undefined when poppler cannot open it (a password it does not have). */
export function recordTruth(file: string): FactTruth | undefined {
  let pages: number;
  try {
    pages = Number(/^Pages:\s+(\d+)/m.exec(run('pdfinfo', [file]))?.[1]);
  } catch {
    return undefined;
  }
  return { pages, ...popplerTruth(file, pages), ...catalogTruth(file) };
}

type Report = Pick<Schemas['PreflightReport'], 'document' | 'pages'>;

const COLOR: Record<string, string> = { indexed: 'index', separation: 'sep', devicen: 'devn' };
const ENCODING: Record<string, string> = { dct: 'jpeg', jpx: 'jpx', jbig2: 'jbig2', ccitt: 'ccitt' };
const stripSubset = (name: string) => name.replace(/^[A-Z]{6}\+/, '');
const sorted = (values: string[]) => JSON.stringify([...values].sort());

/** Per fact, how many of its comparisons agree: [agreeing, compared]. */
export function compareFacts(truth: FactTruth, report: Report): Record<string, [number, number]> {
  const result: Record<string, [number, number]> = {};
  const count = (fact: string, agrees: boolean) => {
    const [a, n] = result[fact] ?? [0, 0];
    result[fact] = [a + (agrees ? 1 : 0), n + 1];
  };
  const doc = report.document;
  count('linearized', doc.linearized === truth.linearized);
  count('tagged', doc.tagged === (truth.marked && truth.struct_tree));
  count('language', doc.language === truth.language);
  count('display_doc_title', doc.display_doc_title === truth.display_doc_title);
  count('pdfa', doc.pdfa === truth.pdfa);
  count('pdfua', doc.pdfua === truth.pdfua);
  count(
    'output_intents',
    sorted(doc.output_intents.map((o) => `${o.subtype} ${o.identifier}`)) ===
      sorted(truth.output_intents.map((o) => `${o.subtype} ${o.identifier}`)),
  );
  count('embedded_files', doc.embedded_files === truth.embedded_files);
  count('struct_figures', doc.struct_figures === truth.struct_figures);
  count('struct_figures_without_alt', doc.struct_figures_without_alt === truth.struct_figures_without_alt);
  for (const page of report.pages) {
    const boxes = truth.boxes[page.page];
    if (page.status !== 'ok' || !page.boxes || !boxes) continue;
    for (const box of ['media', 'crop', 'bleed', 'trim', 'art'] as const)
      count(
        'boxes',
        page.boxes[box].every((v, i) => Math.abs(v - (boxes[box]?.[i] ?? NaN)) < 0.011),
      );
    const ours = page.images.map((i) => ({
      color: i.color_space === null ? '-' : (COLOR[i.color_space] ?? i.color_space),
      comp: i.color_space === 'icc' ? i.icc_components : undefined,
      bpc: i.bits_per_component,
      enc: ENCODING[i.encoding] ?? 'image',
    }));
    const theirs = truth.images.filter((i) => i.page === page.page);
    // a stencil mask or an image pdfimages lists with a colour we leave null (JPEG 2000) is compared on what both have
    for (const fact of ['color', 'bpc', 'enc'] as const)
      count(
        `image_${fact === 'color' ? 'color_space' : fact === 'bpc' ? 'bits_per_component' : 'encoding'}`,
        sorted(ours.map((i) => `${i[fact]}${fact === 'color' && i.comp ? i.comp : ''}`)) ===
          sorted(theirs.map((i) => `${i[fact]}${fact === 'color' && i.color === 'icc' ? i.comp : ''}`)),
      );
  }
  // pdffonts lists a document's fonts once per font object, so two fonts of one name (octave.pdf's two CMSY10
  // subsets, one with a /ToUnicode and one without; Word's several Calibri) are compared with every font
  // of that name the report lists, on whatever page: one that agrees on all three facts is the match.
  // By the name as written first, then without the subset tag (PDFium names a simple font without it) and
  // without a Type 0 font's CMap suffix (its BaseFont is the descendant's name and the CMap's, ISO 32000-1
  // 9.7.6.1; PDFium gives the descendant's)
  type OurFont = {
    name: string;
    embedded: boolean;
    subset: boolean;
    to_unicode: boolean;
    used_for_rendering?: boolean;
  };
  const bare = (name: string) => stripSubset(name).replace(/-Identity-[HV]$/, '');
  const byName = new Map<string, OurFont[]>();
  const byBareName = new Map<string, OurFont[]>();
  const add = (into: Map<string, OurFont[]>, key: string, font: OurFont) => {
    const fonts = into.get(key);
    if (fonts) fonts.push(font);
    else into.set(key, [font]);
  };
  for (const page of report.pages)
    for (const font of page.fonts) {
      add(byName, font.name, font);
      add(byBareName, bare(font.name), font);
    }
  // the report lists every font of the pages' resources, as pdffonts does; `used_for_rendering` says which
  // some text draws with, as pdftohtml names them (`drawn`)
  for (const font of truth.fonts) {
    const name = font.name === '[none]' ? 'unnamed' : font.name;
    const candidates = byName.get(name) ?? byBareName.get(bare(name)) ?? [];
    const ours =
      candidates.find((o) => o.embedded === font.emb && o.subset === font.sub && o.to_unicode === font.uni) ??
      candidates[0];
    count('font_embedded', ours?.embedded === font.emb);
    count('font_subset', ours?.subset === font.sub);
    count('font_to_unicode', ours?.to_unicode === font.uni);
    if (font.drawn !== undefined)
      count('font_used_for_rendering', candidates.some((o) => o.used_for_rendering === true) === font.drawn);
  }
  // the document's fonts not embedded, told apart by name: the count a reader of the report makes
  const notEmbedded = (fonts: { name: string; emb: boolean }[]) =>
    new Set(fonts.filter((f) => !f.emb).map((f) => bare(f.name === '[none]' ? 'unnamed' : f.name))).size;
  count(
    'fonts_not_embedded',
    notEmbedded(report.pages.flatMap((p) => p.fonts.map((f) => ({ name: f.name, emb: f.embedded })))) ===
      notEmbedded(truth.fonts),
  );
  return result;
}
