import { type PdfuaEdits } from './pdfua-file.js';

/** A structure element to write into a fixture: its /S, kids, and entries of its own. */
export interface ElementSpec {
  s: string;
  kids?: ElementSpec[];
  /** Entries added to its dictionary, as written (`/Alt (A chart)`). */
  entries?: string;
  /** Leave /P out. */
  noParent?: boolean;
}

/** `S` with `kids`, as an ElementSpec. */
export const el = (s: string, ...kids: ElementSpec[]): ElementSpec => ({ s, kids });

/**
 * The edits that add `elements` to the default file's Document, after its Figure: one object per element from
 * object 10 on, in document order. Elements hold no content (they need none to be judged by structure rules).
 * `root` replaces the StructTreeRoot (object 6) when given, e.g. to add a /RoleMap.
 */
export function withElements(elements: ElementSpec[], root?: string): PdfuaEdits {
  const objects: string[] = [];
  const write = (spec: ElementSpec, parent: number): number => {
    const number = 10 + objects.length;
    objects.push('');
    const kids = (spec.kids ?? []).map((kid) => write(kid, number));
    const parentEntry = spec.noParent ? '' : ` /P ${parent} 0 R`;
    const kidsEntry = kids.length > 0 ? ` /K [${kids.map((k) => `${k} 0 R`).join(' ')}]` : '';
    objects[number - 10] =
      `<< /Type /StructElem /S /${spec.s}${parentEntry}${kidsEntry}${spec.entries ? ` ${spec.entries}` : ''} >>`;
    return number;
  };
  const tops = elements.map((spec) => write(spec, 7));
  return {
    document: `<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R${tops.map((t) => ` ${t} 0 R`).join('')}] >>`,
    objects,
    ...(root !== undefined ? { root } : {}),
  };
}

/** The default StructTreeRoot with a /RoleMap (entries as written: `/Para /P`). */
export const rootWithRoleMap = (roleMap: string): string =>
  `<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey 1 /RoleMap << ${roleMap} >> >>`;
