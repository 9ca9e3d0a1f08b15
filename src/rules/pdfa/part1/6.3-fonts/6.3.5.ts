import { rule, type Reason, type Rule } from '../../../rule.js';
import { charSetMismatch, drawn, some } from './font-use.js';

/** ISO 19005-1, 6.3.5 Font subsets. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.3.5',
    test: 1,
    object: 'glyph',
    check: 'font_glyphs',
    says: 'The embedded program defines every glyph text is shown with (rendering mode 3 aside)',
    fault: glyphPresenceFault,
    fix: 'embed the font again with every glyph the text uses (a subset must keep them all)',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.3.5',
    test: 2,
    object: 'font',
    check: 'font_subsets',
    says: "A Type 1 font subset's descriptor has a /CharSet listing the glyph names of the subset",
    fault: (font) => {
      if (!drawn(font) || !font.subsetTagged || (font.subtype !== 'Type1' && font.subtype !== 'MMType1'))
        return undefined;
      if (!font.charSet) return 'the subset has no /CharSet';
      return charSetFault(font.charSet, font.programGlyphNames);
    },
    fix: 'write a /CharSet naming every glyph of the subset in its font descriptor (save the file again with a PDF/A writer)',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.3.5',
    test: 3,
    object: 'cid_font',
    check: 'font_subsets',
    says: "A CIDFont subset's descriptor has a /CIDSet identifying the CIDs of the subset",
    fault: (font) => {
      if (!drawn(font) || !font.subsetTagged || !font.embedded) return undefined;
      if (!font.hasCidSet) return 'the subset has no /CIDSet';
      return shownCidsFault(font.cidSetCids, font.programCids, font.drawnCids);
    },
    fix: 'write a /CIDSet stream with a bit set for every CID of the subset in its font descriptor',
  }),
];

/** Shared with ISO 19005-2 6.2.11.4.1-2. */
export function glyphPresenceFault(glyph: {
  renderingMode: number;
  present: boolean | undefined;
  name: string | undefined;
  cid: number | undefined;
}): string | undefined {
  if (glyph.renderingMode === 3 || glyph.present !== false) return undefined;
  const which =
    glyph.cid !== undefined
      ? `CID ${glyph.cid}`
      : glyph.name !== undefined
        ? `the glyph /${glyph.name}`
        : 'its glyph';
  return `the embedded program does not define ${which}`;
}

/** Shared with ISO 19005-2 6.2.11.4.2-1: the CharSet lists exactly the program's glyphs, .notdef aside. */
export function charSetFault(
  charSet: readonly string[],
  program: readonly string[] | undefined,
): string | undefined {
  if (!program) return undefined;
  const { unlisted, absent } = charSetMismatch(charSet, program);
  if (unlisted.length > 0)
    return `the /CharSet leaves out ${unlisted.length} glyphs of the program (${some(unlisted)})`;
  if (absent.length > 0)
    return `the /CharSet lists ${absent.length} glyphs the program lacks (${some(absent)})`;
  return undefined;
}

/**
 * ISO 19005-1 asks the CIDSet to identify the subset's CIDs; read as veraPDF reads it for this part, the CIDs
 * the text shows that the program holds are the ones it must list (a CIDSet of an unused glyph's CID less is
 * kept).
 */
/**
 * A font's CID lists as sets, made once per list: a font is judged again on every page that shows it, and a
 * CJK font's lists hold thousands of CIDs.
 */
const asSets = new WeakMap<readonly number[], ReadonlySet<number>>();
function setOf(list: readonly number[]): ReadonlySet<number> {
  let set = asSets.get(list);
  if (!set) {
    set = new Set(list);
    asSets.set(list, set);
  }
  return set;
}
const programFaults = new WeakMap<readonly number[], WeakMap<readonly number[], string | undefined>>();

function shownCidsFault(
  listed: readonly number[] | undefined,
  held: readonly number[] | undefined,
  shown: readonly number[],
): string | undefined {
  if (!listed || !held) return undefined;
  const set = setOf(listed);
  const inProgram = setOf(held);
  const unlisted = [...new Set(shown)].filter((cid) => cid > 0 && inProgram.has(cid) && !set.has(cid));
  return unlisted.length > 0
    ? `the /CIDSet leaves out ${unlisted.length} CIDs the text shows (${some(unlisted)})`
    : undefined;
}

/** Shared with ISO 19005-2 6.2.11.4.2-2: every CID the program holds (CID 0 aside) has its bit set. */
export function cidSetFault(
  listed: readonly number[] | undefined,
  held: readonly number[] | undefined,
): string | undefined {
  if (!listed) return undefined;
  if (listed.length === 0) return 'the /CIDSet lists no CID';
  if (!held) return undefined;
  const known = programFaults.get(listed)?.get(held);
  if (known !== undefined || programFaults.get(listed)?.has(held)) return known;
  const set = setOf(listed);
  const unlisted = held.filter((cid) => cid > 0 && !set.has(cid));
  const fault =
    unlisted.length > 0
      ? `the /CIDSet leaves out ${unlisted.length} CIDs of the program (${some(unlisted)})`
      : undefined;
  const byProgram = programFaults.get(listed) ?? new WeakMap<readonly number[], string | undefined>();
  byProgram.set(held, fault);
  programFaults.set(listed, byProgram);
  return fault;
}

export const reasons: Reason[] = [];
