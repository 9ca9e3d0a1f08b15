import type { CosFile } from '../../cos/file.js';
import { isDict, nameOf, type PdfValue } from '../../cos/syntax.js';
import { elementWhere, type StructElement, type StructTree, structureTree } from '../structure/tree.js';
import type { ModelNode } from '../node.js';

/** A structure element of standard type Form (ISO 32000-1 14.8.4.5): what holds a widget. */
export interface FormElementNode extends ModelNode {
  /** Its PrintField /Role attribute (or a /Role of any owner), as a name; null when it has none. */
  roleAttribute: string | null;
  /** Its children: elements, marked content and object references, together. */
  children: number;
  /** Its only child is an object reference (OBJR) to a Widget annotation. */
  onlyChildIsWidget: boolean;
}

/** A /Role attribute of an element: from its own /A (first) or the classes its /C names; null when none. */
function roleAttribute(cos: CosFile, tree: StructTree, element: StructElement): string | null {
  const sets: PdfValue[] = [];
  const own = cos.resolve(element.dict.get('A'));
  sets.push(...(Array.isArray(own) ? own : own === undefined ? [] : [own]));
  const classMap = cos.dict(tree.root, 'ClassMap');
  const classes = cos.resolve(element.dict.get('C'));
  for (const name of Array.isArray(classes) ? classes : [classes]) {
    const className = nameOf(cos.resolve(name));
    const defined = className === undefined ? undefined : cos.resolve(cos.get(classMap, className));
    sets.push(...(Array.isArray(defined) ? defined : defined === undefined ? [] : [defined]));
  }
  for (const raw of sets) {
    const set = cos.resolve(raw);
    // the Role attribute is PrintField's (ISO 32000-1 Table 348); a Role of another owner is read too
    const role = isDict(set) ? nameOf(cos.get(set, 'Role')) : undefined;
    if (role !== undefined) return role;
  }
  return null;
}

/** The Form elements of the structure tree (by standard type, through the role map), in document order. */
export function formElements(cos: CosFile): FormElementNode[] {
  const tree = structureTree(cos);
  return tree.elements
    .filter((element) => element.standardType === 'Form')
    .map((element) => {
      const only = element.kids.length === 0 && element.content.length === 1 ? element.content[0] : undefined;
      const target =
        only?.kind === 'object' && only.object !== undefined ? cos.object(only.object) : undefined;
      return {
        where: elementWhere(element),
        roleAttribute: roleAttribute(cos, tree, element),
        children: element.kids.length + element.content.length,
        onlyChildIsWidget: isDict(target) && nameOf(cos.get(target, 'Subtype')) === 'Widget',
      };
    });
}
