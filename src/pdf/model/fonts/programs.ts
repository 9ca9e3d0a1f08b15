import type { CosFile } from '../../cos/file.js';
import { isStream, nameOf, type PdfDict, PdfRef, type PdfValue } from '../../cos/syntax.js';
import { outlinedGlyphs } from '../../glyph-count.js';
import { readCff, type CffProgram } from './cff.js';
import { readSfnt, type SfntProgram } from './sfnt.js';
import { readType1, type Type1Program } from './type1.js';

/** A font descriptor's embedded program, as its key and stream say: the key, its /Subtype, the stream. */
export interface EmbeddedProgram {
  key: 'FontFile' | 'FontFile2' | 'FontFile3';
  subtype: string | undefined;
  stream: { stream: { dict: PdfDict; dataStart: number } };
  objectNumber: number | undefined;
}

/** What a program holds, read once: a TrueType/OpenType, a bare CFF or a Type 1 program, or nothing readable. */
export interface ReadProgram {
  sfnt?: SfntProgram;
  cff?: CffProgram;
  type1?: Type1Program;
  /** A TrueType program's glyph ids that have an outline. */
  outlined?: number[];
}

const MAX_FONT_PROGRAM = 16 * 1024 * 1024;
const KEYS = ['FontFile', 'FontFile2', 'FontFile3'] as const;

export function embeddedProgram(cos: CosFile, descriptor: PdfDict | undefined): EmbeddedProgram | undefined {
  if (!descriptor) return undefined;
  for (const key of KEYS) {
    const written: PdfValue | undefined = descriptor.get(key);
    const stream = cos.resolve(written);
    if (!isStream(stream)) continue;
    return {
      key,
      subtype: nameOf(cos.get(stream.stream.dict, 'Subtype')),
      stream,
      objectNumber: written instanceof PdfRef ? written.num : undefined,
    };
  }
  return undefined;
}

/** Programs read in this file so far, by the stream object (a program shared by fonts is read once). */
const cache = new WeakMap<CosFile, Map<object, ReadProgram>>();

export function readProgram(cos: CosFile, program: EmbeddedProgram): ReadProgram {
  let files = cache.get(cos);
  if (!files) {
    files = new Map();
    cache.set(cos, files);
  }
  const key: object = program.stream.stream;
  let found = files.get(key);
  if (!found) {
    found = parse(cos, program);
    files.set(key, found);
  }
  return found;
}

function parse(cos: CosFile, program: EmbeddedProgram): ReadProgram {
  const bytes = cos.streamBytes(program.stream, MAX_FONT_PROGRAM);
  if (!bytes || bytes.length < 4) return {};
  if (program.key === 'FontFile') {
    const length1 = cos.get(program.stream.stream.dict, 'Length1');
    const type1 = typeof length1 === 'number' ? readType1(bytes, length1) : undefined;
    return type1 ? { type1 } : {};
  }
  const sfnt = readSfnt(bytes);
  if (sfnt) {
    const outlined = outlinedGlyphs(bytes);
    return outlined ? { sfnt, outlined } : { sfnt };
  }
  const cff = bytes[0] === 1 ? readCff(bytes) : undefined;
  return cff ? { cff } : {};
}
