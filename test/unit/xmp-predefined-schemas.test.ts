import { describe, expect, it } from 'vitest';
import {
  SEQUENCE_CHOICES,
  SIMPLE_TYPES,
  XMP_2004,
  XMP_2005,
  type PropertyType,
  type XmpDefinitions,
} from '../../src/pdf/xmp/predefined-schemas.js';

/**
 * The tables of predefined XMP schemas: every type they name exists in the same edition, no schema is
 * there twice, and a few facts of the XMP Specifications 2004 and 2005 as PDF/A-1 and PDF/A-2/3 take them.
 */
const editions = [
  ['XMP 2004', XMP_2004],
  ['XMP 2005', XMP_2005],
] as const;

function itemType(type: string): string {
  return type.replace(/^(Bag|Seq|Alt) /, '');
}

/** Whether a pattern holds the whole value: `^...$`, no alternative outside a group (`^1|2$` does not). */
function wholeValue(pattern: RegExp): boolean {
  const source = pattern.source;
  if (!source.startsWith('^') || !source.endsWith('$') || pattern.global || pattern.sticky) return false;
  let depth = 0;
  let inClass = false;
  for (let at = 1; at < source.length - 1; at++) {
    const char = source[at];
    if (char === '\\') at++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) return false;
  }
  return true;
}

function property(defs: XmpDefinitions, prefix: string, name: string): PropertyType | undefined {
  return defs.schemas.find((schema) => schema.prefix === prefix)?.properties[name];
}

describe.each(editions)('%s', (_, defs) => {
  it('names only simple types and structures of its own edition', () => {
    const unknown: string[] = [];
    const look = (where: string, type: PropertyType) => {
      const item = itemType(type.type);
      if (!SIMPLE_TYPES.includes(item) && !(item in defs.types)) unknown.push(`${where}: ${type.type}`);
    };
    for (const schema of defs.schemas) {
      for (const [name, type] of Object.entries(schema.properties)) look(`${schema.prefix}:${name}`, type);
    }
    for (const [typeName, structure] of Object.entries(defs.types)) {
      for (const [name, type] of Object.entries(structure.fields)) look(`${typeName}/${name}`, type);
    }
    expect(unknown).toEqual([]);
  });

  it('has each namespace and each prefix once', () => {
    const namespaces = defs.schemas.map((schema) => schema.namespace);
    const prefixes = defs.schemas.map((schema) => schema.prefix);
    expect(new Set(namespaces).size).toBe(namespaces.length);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('anchors every closed choice to the whole value', () => {
    const loose: string[] = [];
    const all = [
      ...defs.schemas.flatMap((schema) => Object.values(schema.properties)),
      ...Object.values(defs.types).flatMap((structure) => Object.values(structure.fields)),
    ];
    for (const { allowed } of all) if (allowed && !wholeValue(allowed)) loose.push(allowed.source);
    expect(loose).toEqual([]);
    expect(wholeValue(/^1|-32786$/)).toBe(false);
  });

  it('shares the PDF/A identification, Dublin Core and EXIF facts of both editions', () => {
    expect(property(defs, 'pdfaid', 'part')).toEqual({ type: 'Integer' });
    expect(property(defs, 'dc', 'contributor')).toEqual({ type: 'Bag ProperName' });
    expect(property(defs, 'exif', 'CFAPattern')).toEqual({ type: 'CFAPattern' });
    expect(property(defs, 'photoshop', 'AuthorsPosition')).toEqual({ type: 'Text' });
    expect(property(defs, 'xmpRights', 'Certificate')).toEqual({ type: 'URL' });
    expect(property(defs, 'xmpBJ', 'JobRef')).toEqual({ type: 'Bag Job' });
    expect(property(defs, 'tiff', 'Compression')?.allowed?.test('6')).toBe(true);
    expect(property(defs, 'tiff', 'Compression')?.allowed?.test('6.0')).toBe(false);
    expect(defs.types.Flash?.fields.Return?.allowed?.test('1')).toBe(false);
    expect(defs.types.Thumbnail?.fields.format?.allowed?.test('JPEG')).toBe(true);
  });
});

describe('XMP 2004 (PDF/A-1)', () => {
  it('has no schema or property that arrived in 2005', () => {
    const prefixes = XMP_2004.schemas.map((schema) => schema.prefix);
    expect(prefixes).not.toContain('xmpDM');
    expect(prefixes).not.toContain('crs');
    expect(prefixes).not.toContain('aux');
    expect(property(XMP_2004, 'pdf', 'Author')).toBeUndefined();
    expect(property(XMP_2004, 'xmp', 'Rating')).toBeUndefined();
    expect(property(XMP_2004, 'xmpTPg', 'Fonts')).toBeUndefined();
    expect(property(XMP_2004, 'pdfaid', 'corr')).toBeUndefined();
    expect(XMP_2004.types.Colorant).toBeUndefined();
  });

  it('keeps the 2004 closed choices', () => {
    const conformance = property(XMP_2004, 'pdfaid', 'conformance')?.allowed;
    expect(['A', 'B', 'U', 'AB'].map((value) => conformance?.test(value))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(property(XMP_2004, 'exif', 'ExifVersion')?.allowed?.test('0220')).toBe(false);
    expect(property(XMP_2004, 'exif', 'LightSource')?.allowed?.test('22')).toBe(true);
    expect(property(XMP_2004, 'exif', 'LightSource')?.allowed?.test('23')).toBe(false);
    expect(property(XMP_2004, 'photoshop', 'SupplementalCategories')).toEqual({ type: 'Text' });
  });
});

describe('XMP 2005 (PDF/A-2 and -3)', () => {
  it('adds Dynamic Media, Camera Raw and the EXIF auxiliary schema', () => {
    expect(property(XMP_2005, 'xmpDM', 'altTapeName')).toEqual({ type: 'Text' });
    expect(property(XMP_2005, 'xmpDM', 'absPeakAudioFilePath')).toEqual({ type: 'URI' });
    expect(property(XMP_2005, 'xmpDM', 'beatSpliceParams')).toEqual({ type: 'BeatSpliceStretch' });
    expect(property(XMP_2005, 'xmpDM', 'pullDown')?.allowed?.test('WSSWW_24p')).toBe(true);
    expect(property(XMP_2005, 'crs', 'ToneCurve')?.type).toBe('Seq Text');
    expect(property(XMP_2005, 'crs', 'ToneCurve')?.allowed?.test('(0, 0)')).toBe(true);
    expect(property(XMP_2005, 'aux', 'Lens')).toEqual({ type: 'Text' });
    expect(property(XMP_2005, 'xmpTPg', 'Colorants')).toEqual({ type: 'Seq Colorant' });
    expect(XMP_2005.types.Colorant?.fields.mode?.allowed?.test('LAB')).toBe(true);
    expect(XMP_2005.types.Colorant?.fields.A?.allowed?.test('-129')).toBe(false);
  });

  it('takes conformance U and the corrigendum, and drops what 2005 changed', () => {
    expect(property(XMP_2005, 'pdfaid', 'conformance')?.allowed?.test('U')).toBe(true);
    expect(property(XMP_2005, 'pdfaid', 'corr')).toEqual({ type: 'Text' });
    expect(property(XMP_2005, 'photoshop', 'SupplementalCategories')).toEqual({ type: 'Bag Text' });
    expect(property(XMP_2005, 'exif', 'MakerNote')).toBeUndefined();
    expect(property(XMP_2005, 'exif', 'ColorSpace')?.allowed?.test('65535')).toBe(true);
  });
});

describe('SEQUENCE_CHOICES', () => {
  it('names properties of both editions typed as sequences', () => {
    for (const key of Object.keys(SEQUENCE_CHOICES)) {
      for (const defs of [XMP_2004, XMP_2005]) {
        const schema = defs.schemas.find((candidate) => key.startsWith(candidate.namespace));
        const type = schema?.properties[key.slice(schema.namespace.length)]?.type;
        expect(type, key).toMatch(/^Seq /);
      }
    }
    expect(SEQUENCE_CHOICES['http://ns.adobe.com/tiff/1.0/YCbCrSubSampling']).toContainEqual(['2', '2']);
  });
});
