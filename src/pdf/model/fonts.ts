import type { CosFile } from '../cos/file.js';
import { isDict, isStream, nameOf, type PdfDict, PdfRef, type PdfValue, textString } from '../cos/syntax.js';
import { isStandard14 } from '../font-program.js';
import { glyphNameMapsToUnicode } from '../glyph-names.js';
import type { Builders, Emitter, ModelNode, PageSource } from './node.js';
import { appearanceOperations, pageOperations, type Operation } from './operations.js';
import { cmapProgram, predefinedSystem } from './fonts/cmap.js';
import { glyphFacts, shownCids, type GlyphFacts } from './fonts/glyphs.js';
import { embeddedProgram, readProgram, type EmbeddedProgram, type ReadProgram } from './fonts/programs.js';

/** How a font is drawn on a page: by which text rendering modes (ISO 32000-1 9.3.6), none when it is not. */
interface Drawing {
  /** The text rendering modes (0 to 7) text is shown in with this font; empty when no text shows it. */
  drawnModes: number[];
}

/** A font dictionary (ISO 32000-1 9.6, 9.7): a simple font, a Type 0 font, or the CIDFont of one. */
export interface FontNode extends ModelNode, Drawing {
  objectNumber: number | undefined;
  /** `/Type`, `/Subtype` and `/BaseFont` as written (names), undefined when absent or not names. */
  type: string | undefined;
  subtype: string | undefined;
  baseFont: string | undefined;
  /** The BaseFont begins with a subset tag (six capitals and `+`). */
  subsetTagged: boolean;
  /** A simple Type 1 font named as one of the 14 standard fonts, with no program embedded. */
  standard14: boolean;
  firstChar: PdfValue | undefined;
  lastChar: PdfValue | undefined;
  /** The number of entries of `/Widths`, undefined when it is not an array. */
  widthsCount: number | undefined;
  /** `/Encoding` as written: absent, a name, a dictionary or a stream (a Type 0 font's CMap). */
  encodingKind: 'none' | 'name' | 'dictionary' | 'stream' | 'other';
  /** The encoding's name: `/Encoding` when a name, else the dictionary's `/BaseEncoding`. */
  encodingName: string | undefined;
  /** The encoding dictionary has a `/Differences` entry. */
  hasDifferences: boolean;
  /** The glyph names `/Differences` lists (at most MAX_DIFFERENCES). */
  differencesNames: string[];
  /** Every name of `/Differences` maps to Unicode by the Adobe Glyph List rules. */
  differencesInGlyphList: boolean;
  /** The font descriptor's `/Flags`, undefined without one. */
  flags: number | undefined;
  /** Flags bit 3, Symbolic. */
  symbolic: boolean;
  /** The descriptor's font file key, when it has one that is a stream. */
  fontFileKey: EmbeddedProgram['key'] | undefined;
  /** The `/Subtype` of the font file stream. */
  fontFileSubtype: string | undefined;
  /** The descriptor's `/CharSet` names, undefined when it has none (or it is not a string). */
  charSet: string[] | undefined;
  /**
   * The glyph names the embedded program defines (a Type 1 or a name-keyed CFF program), read when first
   * asked; undefined when there is none or it cannot be read.
   */
  readonly programGlyphNames: string[] | undefined;
  /** An embedded TrueType/OpenType program's `cmap` subtables (`3,1`), read when first asked. */
  readonly programCmapEncodings: string[] | undefined;
}

/** A CIDFont (ISO 32000-1 9.7.4) as its Type 0 font uses it. */
export interface CidFontNode extends ModelNode, Drawing {
  objectNumber: number | undefined;
  subtype: string | undefined;
  baseFont: string | undefined;
  subsetTagged: boolean;
  registry: string | undefined;
  ordering: string | undefined;
  supplement: number | undefined;
  /** `/CIDToGIDMap`: absent, the name written, or a stream. */
  cidToGidMap: 'none' | 'stream' | 'other' | `/${string}`;
  embedded: boolean;
  /** The descriptor has a `/CIDSet` stream. */
  hasCidSet: boolean;
  /** The CIDs text on this page shows with the font (by its CMap); empty when they cannot be read. */
  drawnCids: number[];
  /** The CIDs the CIDSet lists (its set bits), read when first asked; undefined when it cannot be decoded. */
  readonly cidSetCids: number[] | undefined;
  /**
   * The CIDs the embedded program holds a glyph for, read when first asked: a CID-keyed CFF's charset, a
   * name-keyed CFF's glyph ids, a TrueType's outlined glyph ids mapped by identity. Undefined when unknown.
   */
  readonly programCids: number[] | undefined;
}

/** The CMap of a Type 0 font (ISO 32000-1 9.7.5): predefined by name, or embedded as a stream. */
export interface CMapNode extends ModelNode, Drawing {
  /** The name: the predefined CMap's, or the embedded stream's `/CMapName`. */
  name: string | undefined;
  embedded: boolean;
  registry: string | undefined;
  ordering: string | undefined;
  supplement: number | undefined;
  /** The stream dictionary's `/WMode` (0 when absent). */
  wmodeDeclared: number;
  /** `/WMode` in the CMap program; undefined when it does not say or cannot be read. */
  wmodeInProgram: number | undefined;
  /** The CMap this one uses: the stream's `/UseCMap` (a name, or an embedded CMap's name), or its `usecmap`. */
  usedCMap: { name: string | undefined; embedded: boolean } | undefined;
  /** The largest CID the embedded program maps a code to; undefined when not embedded or unreadable. */
  maxCid: number | undefined;
  /** The CIDSystemInfo of the CIDFont the CMap is used with (its Type 0 font's descendant). */
  cidFontSystem:
    | { registry: string | undefined; ordering: string | undefined; supplement: number | undefined }
    | undefined;
}

/** An embedded TrueType program of a simple TrueType font. */
export interface FontProgramNode extends ModelNode, Drawing {
  /** The font dictionary's Symbolic flag. */
  symbolic: boolean;
  /** The `cmap` subtables, as `platform,encoding` (`3,1`), read when first asked; undefined when unreadable. */
  readonly cmapEncodings: string[] | undefined;
}

/** One glyph a text showing operator draws: a distinct font, code and rendering mode of a page. */
export interface GlyphNode extends ModelNode, GlyphFacts {
  renderingMode: number;
}

export interface FontKinds {
  font: FontNode;
  cid_font: CidFontNode;
  cmap: CMapNode;
  font_program: FontProgramNode;
  glyph: GlyphNode;
}

const SUBSET_TAG = /^[A-Z]{6}\+/;
const MAX_DIFFERENCES = 512;
const MAX_RESOURCE_NODES = 4096;
const MAX_GLYPHS_PER_PAGE = 20_000;
const TEXT_SHOWING = new Set(['Tj', 'TJ', "'", '"']);

/** A font dictionary met in some resources: its object number (when indirect) and the name it is given. */
interface FoundFont {
  dict: PdfDict;
  num: number | undefined;
  name: string;
  where: string;
}

/** A font's identity in one file: `12` for object 12, `direct 3` for a dictionary written in place. */
type FontKey = string;

/** Every font of the resources a page uses: its own, its forms', its annotations' appearances', Type 3 fonts'. */
class FontWalk {
  readonly fonts = new Map<FontKey, FoundFont>();
  private readonly seen = new Set<number>();
  private visited = 0;

  constructor(
    private readonly cos: CosFile,
    private readonly place: string,
  ) {}

  resources(value: PdfValue | undefined, depth = 0): void {
    const cos = this.cos;
    if (depth > 12 || !this.once(value)) return;
    const resources = cos.resolve(value);
    if (!isDict(resources)) return;
    const fonts = cos.dict(resources, 'Font');
    for (const [name, ref] of fonts ?? []) {
      const dict = cos.resolve(ref);
      if (!isDict(dict)) continue;
      const key = fontKey(ref, dict);
      if (this.fonts.has(key)) continue;
      const num = ref instanceof PdfRef ? ref.num : undefined;
      this.fonts.set(key, {
        dict,
        num,
        name,
        where: `font ${name}${num === undefined ? '' : ` (object ${num})`} ${this.place}`,
      });
      if (nameOf(cos.get(dict, 'Subtype')) === 'Type3' && this.once(ref))
        this.resources(dict.get('Resources'), depth + 1);
    }
    for (const [, xobject] of cos.dict(resources, 'XObject') ?? []) {
      if (!this.once(xobject)) continue;
      const form = cos.resolve(xobject);
      if (isStream(form) && nameOf(cos.get(form.stream.dict, 'Subtype')) === 'Form')
        this.resources(form.stream.dict.get('Resources'), depth + 1);
    }
  }

  /** The resources of each appearance stream of the page's annotations. */
  annotations(page: PdfDict): void {
    const cos = this.cos;
    for (const annot of cos.array(page, 'Annots')) {
      const ap = cos.dict(cos.resolve(annot) as PdfDict | undefined, 'AP');
      for (const key of ['N', 'R', 'D']) {
        const entry = cos.resolve(ap?.get(key));
        const streams = isStream(entry)
          ? [entry]
          : isDict(entry)
            ? [...entry.values()].map((v) => cos.resolve(v))
            : [];
        for (const stream of streams)
          if (isStream(stream)) this.resources(stream.stream.dict.get('Resources'), 1);
      }
    }
  }

  private once(value: PdfValue | undefined): boolean {
    if (this.visited++ > MAX_RESOURCE_NODES) return false;
    if (value instanceof PdfRef) {
      if (this.seen.has(value.num)) return false;
      this.seen.add(value.num);
    }
    return true;
  }
}

const fontKey = (ref: PdfValue | undefined, dict: PdfDict): FontKey =>
  ref instanceof PdfRef ? String(ref.num) : `direct ${idOf(dict)}`;

/** The codes each font draws on the page, by rendering mode, and the fonts text shows at all. */
interface PageText {
  modes: Map<FontKey, Set<number>>;
  /** Per font: rendering mode to the strings shown. */
  strings: Map<FontKey, { dict: PdfDict; where: string; shown: Map<number, Uint8Array[]> }>;
}

/**
 * Follows the text state through the page's operations: `Tf` and `Tr` as `q`/`Q` save and restore them,
 * and a form's content starting from the state its `Do` drew it in (and leaving it as it was).
 */
function pageText(cos: CosFile, source: PageSource, wantStrings: boolean): PageText {
  const text: PageText = { modes: new Map(), strings: new Map() };
  followText(cos, pageOperations(source), wantStrings, text);
  // each annotation's appearance streams start from the default state, apart from the page's
  let run: Operation[] = [];
  for (const op of appearanceOperations(source)) {
    if (run.length > 0 && run[0]!.where.split(',', 2)[1] !== op.where.split(',', 2)[1]) {
      followText(cos, run, wantStrings, text);
      run = [];
    }
    run.push(op);
  }
  followText(cos, run, wantStrings, text);
  return text;
}

function followText(
  cos: CosFile,
  operations: readonly Operation[],
  wantStrings: boolean,
  { modes, strings }: PageText,
): void {
  interface State {
    font: { key: FontKey; dict: PdfDict; name: string } | undefined;
    mode: number;
  }
  let state: State = { font: undefined, mode: 0 };
  const saved: State[] = [];
  const forms: { form: number | undefined; state: State; saved: number }[] = [];
  let form: number | undefined;
  let budget = 0;
  for (const op of operations) {
    if (op.form !== form) {
      const at = forms.findIndex((f) => f.form === op.form);
      if (at >= 0) {
        // back in a form (or the page) that drew the one that ended
        state = forms[at]!.state;
        saved.length = forms[at]!.saved;
        forms.length = at;
      } else {
        forms.push({ form, state: { ...state }, saved: saved.length });
      }
      form = op.form;
    }
    switch (op.op) {
      case 'q':
        saved.push({ ...state });
        break;
      case 'Q':
        if (saved.length > (forms.at(-1)?.saved ?? 0)) state = saved.pop()!;
        break;
      case 'Tf': {
        const name = nameOf(op.operands[0]);
        const ref = name === undefined ? undefined : cos.dict(op.resources, 'Font')?.get(name);
        const dict = cos.resolve(ref);
        state = {
          ...state,
          font: isDict(dict) && name ? { key: fontKey(ref, dict), dict, name } : undefined,
        };
        break;
      }
      case 'Tr': {
        const mode = op.operands[0];
        if (typeof mode === 'number' && Number.isInteger(mode) && mode >= 0 && mode <= 7)
          state = { ...state, mode };
        break;
      }
      default:
        if (!TEXT_SHOWING.has(op.op) || !state.font) break;
        {
          const { key, dict, name } = state.font;
          const set = modes.get(key) ?? new Set();
          set.add(state.mode);
          modes.set(key, set);
          if (!wantStrings || budget > MAX_GLYPHS_PER_PAGE * 4) break;
          const entry = strings.get(key) ?? {
            dict,
            where: `font ${name}${key.startsWith('direct') ? '' : ` (object ${key})`}, ${op.where}`,
            shown: new Map(),
          };
          strings.set(key, entry);
          const list = entry.shown.get(state.mode) ?? [];
          entry.shown.set(state.mode, list);
          const last = op.operands.at(-1);
          for (const item of Array.isArray(last) ? last : [last])
            if (item instanceof Uint8Array) {
              list.push(item);
              budget += item.length;
            }
        }
    }
  }
}

function fontNode(cos: CosFile, found: FoundFont, drawnModes: number[]): FontNode {
  const { dict } = found;
  const subtype = nameOf(cos.get(dict, 'Subtype'));
  const baseFont = nameOf(cos.get(dict, 'BaseFont'));
  const descriptor = cos.dict(dict, 'FontDescriptor');
  const program = embeddedProgram(cos, descriptor);
  const encoding = cos.get(dict, 'Encoding');
  const differences = isDict(encoding) ? cos.get(encoding, 'Differences') : undefined;
  const differencesNames = (Array.isArray(differences) ? differences : [])
    .map((entry) => nameOf(cos.resolve(entry)))
    .filter((name): name is string => name !== undefined)
    .slice(0, MAX_DIFFERENCES);
  const widths = cos.get(dict, 'Widths');
  const flags = cos.get(descriptor, 'Flags');
  const charSet = cos.get(descriptor, 'CharSet');
  let glyphNames: { value: string[] | undefined } | undefined;
  return {
    where: found.where,
    drawnModes,
    objectNumber: found.num,
    type: nameOf(cos.get(dict, 'Type')),
    subtype,
    baseFont,
    subsetTagged: SUBSET_TAG.test(baseFont ?? ''),
    standard14: subtype === 'Type1' && !program && isStandard14(baseFont ?? ''),
    firstChar: cos.get(dict, 'FirstChar'),
    lastChar: cos.get(dict, 'LastChar'),
    widthsCount: Array.isArray(widths) ? widths.length : undefined,
    encodingKind:
      encoding === undefined
        ? 'none'
        : nameOf(encoding) !== undefined
          ? 'name'
          : isStream(encoding)
            ? 'stream'
            : isDict(encoding)
              ? 'dictionary'
              : 'other',
    encodingName:
      nameOf(encoding) ?? (isDict(encoding) ? nameOf(cos.get(encoding, 'BaseEncoding')) : undefined),
    hasDifferences: isDict(encoding) && encoding.has('Differences'),
    differencesNames,
    differencesInGlyphList: differencesNames.every(
      (name) => name === '.notdef' || glyphNameMapsToUnicode(name),
    ),
    flags: typeof flags === 'number' ? flags : undefined,
    symbolic: typeof flags === 'number' && (flags & 4) !== 0,
    fontFileKey: program?.key,
    fontFileSubtype: program?.subtype,
    charSet: charSet instanceof Uint8Array ? charSetNames(charSet) : undefined,
    get programGlyphNames() {
      glyphNames ??= { value: program ? programNames(readProgram(cos, program)) : undefined };
      return glyphNames.value;
    },
    get programCmapEncodings() {
      return program ? readProgram(cos, program).sfnt?.cmapEncodings : undefined;
    },
  };
}

const charSetNames = (charSet: Uint8Array): string[] =>
  Buffer.from(charSet)
    .toString('latin1')
    .split('/')
    .map((n) => n.trim())
    .filter(Boolean);

function programNames(read: ReadProgram): string[] | undefined {
  return read.type1?.names ?? read.cff?.names;
}

function systemInfo(cos: CosFile, dict: PdfDict | undefined) {
  const info = cos.dict(dict, 'CIDSystemInfo');
  const supplement = cos.get(info, 'Supplement');
  return {
    registry: textString(cos.get(info, 'Registry')),
    ordering: textString(cos.get(info, 'Ordering')),
    supplement: typeof supplement === 'number' ? supplement : undefined,
  };
}

function cidFontNode(
  cos: CosFile,
  cidFont: PdfDict,
  num: number | undefined,
  where: string,
  drawnModes: number[],
  drawnCids: number[],
): CidFontNode {
  const subtype = nameOf(cos.get(cidFont, 'Subtype'));
  const baseFont = nameOf(cos.get(cidFont, 'BaseFont'));
  const descriptor = cos.dict(cidFont, 'FontDescriptor');
  const program = embeddedProgram(cos, descriptor);
  const map = cos.get(cidFont, 'CIDToGIDMap');
  const cidSet = cos.get(descriptor, 'CIDSet');
  const identity = map === undefined || nameOf(map) === 'Identity';
  // one reading per CIDFont dictionary and file, however many pages show it
  const cids = cidListsOf(cidFont);
  return {
    where,
    drawnModes,
    objectNumber: num,
    subtype,
    baseFont,
    subsetTagged: SUBSET_TAG.test(baseFont ?? ''),
    ...systemInfo(cos, cidFont),
    cidToGidMap:
      map === undefined
        ? 'none'
        : isStream(map)
          ? 'stream'
          : nameOf(map) !== undefined
            ? `/${nameOf(map)!}`
            : 'other',
    embedded: program !== undefined,
    hasCidSet: isStream(cidSet),
    drawnCids,
    get cidSetCids() {
      cids.listed ??= { value: isStream(cidSet) ? setBits(cos.streamBytes(cidSet)) : undefined };
      return cids.listed.value;
    },
    get programCids() {
      cids.held ??= {
        value: program ? programCids(readProgram(cos, program), subtype, identity) : undefined,
      };
      return cids.held.value;
    },
  };
}

interface CidLists {
  listed?: { value: number[] | undefined };
  held?: { value: number[] | undefined };
}
const cidLists = new WeakMap<PdfDict, CidLists>();
function cidListsOf(cidFont: PdfDict): CidLists {
  let lists = cidLists.get(cidFont);
  if (!lists) {
    lists = {};
    cidLists.set(cidFont, lists);
  }
  return lists;
}

function setBits(bytes: Uint8Array | undefined): number[] | undefined {
  if (!bytes) return undefined;
  const cids: number[] = [];
  bytes.forEach((byte, i) => {
    for (let bit = 0; bit < 8; bit++) if (byte & (0x80 >> bit)) cids.push(i * 8 + bit);
  });
  return cids;
}

function programCids(
  read: ReadProgram,
  subtype: string | undefined,
  identity: boolean,
): number[] | undefined {
  if (read.cff) {
    if (read.cff.gidOfCid) return [...read.cff.gidOfCid.keys()];
    return Array.from({ length: read.cff.glyphCount }, (_, i) => i);
  }
  // a TrueType CIDFont mapped by identity: each outlined glyph's CID is its glyph id
  if (subtype === 'CIDFontType2' && identity && read.outlined) return read.outlined;
  return undefined;
}

function cmapNode(
  cos: CosFile,
  encoding: PdfValue | undefined,
  where: string,
  drawnModes: number[],
  cidFont: PdfDict | undefined,
): CMapNode | undefined {
  const cidFontSystem = cidFont && cos.dict(cidFont, 'CIDSystemInfo') ? systemInfo(cos, cidFont) : undefined;
  const name = nameOf(encoding);
  if (name !== undefined)
    return {
      where,
      drawnModes,
      name,
      embedded: false,
      ...predefinedSystem(name),
      wmodeDeclared: name.endsWith('-V') || name === 'V' ? 1 : 0,
      wmodeInProgram: undefined,
      usedCMap: undefined,
      maxCid: undefined,
      cidFontSystem,
    };
  if (!isStream(encoding)) return undefined;
  const dict = encoding.stream.dict;
  const program = cmapProgram(cos, encoding);
  const use = dict.get('UseCMap');
  const used = cos.resolve(use);
  const wmode = cos.get(dict, 'WMode');
  return {
    where,
    drawnModes,
    name: nameOf(cos.get(dict, 'CMapName')),
    embedded: true,
    ...systemInfo(cos, dict),
    wmodeDeclared: typeof wmode === 'number' ? wmode : 0,
    wmodeInProgram: program?.wmode,
    usedCMap:
      nameOf(used) !== undefined
        ? { name: nameOf(used), embedded: false }
        : isStream(used)
          ? { name: nameOf(cos.get(used.stream.dict, 'CMapName')), embedded: true }
          : program?.useCMap !== undefined
            ? { name: program.useCMap, embedded: false }
            : undefined,
    maxCid: program?.maxCid,
    cidFontSystem,
  };
}

function fontProgramNode(
  cos: CosFile,
  found: FoundFont,
  font: FontNode,
  drawnModes: number[],
): FontProgramNode | undefined {
  const program = embeddedProgram(cos, cos.dict(found.dict, 'FontDescriptor'));
  if (!program || program.key !== 'FontFile2') return undefined;
  let encodings: { value: string[] | undefined } | undefined;
  return {
    where: `the TrueType program of ${found.where}`,
    drawnModes,
    symbolic: font.symbolic,
    get cmapEncodings() {
      encodings ??= { value: readProgram(cos, program).sfnt?.cmapEncodings };
      return encodings.value;
    },
  };
}

const sortedModes = (set: Set<number> | undefined) => [...(set ?? [])].sort((a, b) => a - b);

function emitFont(
  cos: CosFile,
  out: Emitter<FontKinds>,
  found: FoundFont,
  drawnModes: number[],
  drawnCids: number[],
): void {
  const { dict } = found;
  const font = fontNode(cos, found, drawnModes);
  if (out.wants('font')) out.emit('font', font);
  if (font.subtype === 'TrueType' && out.wants('font_program')) {
    const node = fontProgramNode(cos, found, font, drawnModes);
    if (node) out.emit('font_program', node);
  }
  if (font.subtype !== 'Type0') return;
  const written = cos.array(dict, 'DescendantFonts')[0];
  const resolved = cos.resolve(written);
  const descendant = isDict(resolved) ? resolved : undefined;
  if (out.wants('cmap')) {
    const cmap = cmapNode(
      cos,
      cos.get(dict, 'Encoding'),
      `the CMap of ${found.where}`,
      drawnModes,
      descendant,
    );
    if (cmap) out.emit('cmap', cmap);
  }
  if (!descendant) return;
  const num = written instanceof PdfRef ? written.num : undefined;
  const where = `the CIDFont${num === undefined ? '' : ` (object ${num})`} of ${found.where}`;
  if (out.wants('font'))
    out.emit('font', fontNode(cos, { dict: descendant, num, name: found.name, where }, drawnModes));
  if (out.wants('cid_font'))
    out.emit('cid_font', cidFontNode(cos, descendant, num, where, drawnModes, drawnCids));
}

function pageBuilder(source: PageSource, out: Emitter<FontKinds>): void {
  const fontKinds = (['font', 'cid_font', 'cmap', 'font_program'] as const).some((k) => out.wants(k));
  const glyphs = out.wants('glyph');
  if (!fontKinds && !glyphs) return;
  const { cos } = source;
  const text = pageText(cos, source, glyphs || out.wants('cid_font'));
  if (fontKinds) {
    const walk = new FontWalk(cos, `on page ${source.pageNumber}`);
    walk.resources(source.resources);
    walk.annotations(source.page);
    const seen = seenIn(cos);
    for (const [key, found] of walk.fonts) {
      // a font is judged once per way the file uses it: not shown, or shown in these modes
      const modes = sortedModes(text.modes.get(key));
      const shown = text.strings.get(key)?.shown;
      // one mode's strings are given as they are, so that the glyphs below reuse their decoding
      const cids = shown
        ? shownCids(
            cos,
            found.dict,
            shown.size === 1 ? shown.values().next().value! : [...shown.values()].flat(),
          )
        : [];
      // a composite font is judged again where it shows CIDs no page before showed
      const seenCids = seen.cidsOf(key);
      const newCids = cids.filter((cid) => !seenCids.has(cid));
      const use = `${key} ${modes.join(',')}`;
      if (seen.uses.has(use) && newCids.length === 0) continue;
      if (!seen.full) {
        seen.add(seen.uses, use);
        for (const cid of newCids) seen.add(seenCids, cid);
      }
      emitFont(cos, out, found, modes, cids);
    }
  }
  if (glyphs) {
    let emitted = 0;
    const seen = seenIn(cos);
    for (const [key, { dict, where, shown }] of text.strings)
      for (const [mode, strings] of shown) {
        // a glyph is judged the first time a page of the file shows it (in this reading of the file)
        const codes = seen.codesOf(`${key} ${mode === 3 ? 3 : 0}`);
        const isNew = (code: number) => !codes.has(code);
        for (const fact of glyphFacts(cos, dict, strings, isNew)) {
          if (emitted++ >= MAX_GLYPHS_PER_PAGE) return;
          if (!seen.full) seen.add(codes, fact.code);
          // assigned, not spread: the facts read when first asked (a glyph's Unicode) stay unread until then
          out.emit(
            'glyph',
            Object.assign(fact, { where: `${where}, code ${fact.code}`, renderingMode: mode }),
          );
        }
      }
  }
}

const MAX_SEEN = 1_000_000;

/**
 * What this reading of a file has judged so far, at most MAX_SEEN entries: each font's uses (its key and the
 * modes it is shown in), the CIDs each composite font has shown, and the codes each font has shown (by font
 * and by rendering mode 3 or not). Numbers in sets of their own font, not strings in one set: a page's codes
 * are looked up by the thousand.
 */
class SeenInFile {
  readonly uses = new Set<string>();
  private readonly cids = new Map<FontKey, Set<number>>();
  private readonly codes = new Map<string, Set<number>>();
  private total = 0;

  get full(): boolean {
    return this.total >= MAX_SEEN;
  }

  cidsOf(key: FontKey): Set<number> {
    return setIn(this.cids, key);
  }

  codesOf(fontAndMode: string): Set<number> {
    return setIn(this.codes, fontAndMode);
  }

  add<T>(set: Set<T>, value: T): void {
    if (set.has(value)) return;
    set.add(value);
    this.total++;
  }
}

function setIn<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  return set;
}

const seenByFile = new WeakMap<CosFile, SeenInFile>();
function seenIn(cos: CosFile): SeenInFile {
  let seen = seenByFile.get(cos);
  if (!seen) {
    seen = new SeenInFile();
    seenByFile.set(cos, seen);
  }
  return seen;
}

const ids = new WeakMap<object, number>();
let nextId = 0;
const idOf = (key: object): number => {
  let id = ids.get(key);
  if (id === undefined) {
    id = nextId++;
    ids.set(key, id);
  }
  return id;
};

/** The interactive form's default resources: fonts a filled-in field draws with (no page content shows them). */
function documentBuilder({ cos }: { cos: CosFile }, out: Emitter<FontKinds>): void {
  if (!out.wants('font')) return;
  const walk = new FontWalk(cos, 'in the interactive form resources');
  walk.resources(cos.dict(cos.catalog, 'AcroForm')?.get('DR'));
  for (const [, found] of walk.fonts) out.emit('font', fontNode(cos, found, []));
}

export const fontBuilders: Builders<FontKinds> = { document: documentBuilder, page: pageBuilder };
