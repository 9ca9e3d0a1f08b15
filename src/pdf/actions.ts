import type { CosFile } from './cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef, type PdfValue } from './cos/syntax.js';

const MAX_ACTION_NODES = 100_000;
const MAX_LISTED = 50;

/** Where an additional-actions dictionary (`/AA`) was found. */
export type ActionHolder = 'catalog' | 'page' | 'annotation' | 'field';

export interface ActionFacts {
  /** The distinct action types reachable (`/S`), a named action as `Named/<name>`, sorted. */
  actions: string[];
  /** The kinds of dictionary that hold an `/AA`, sorted. */
  additional_actions: ActionHolder[];
}

/**
 * Every action a viewer could run: the catalog's OpenAction and additional actions, pages' additional
 * actions, annotations' (and so widgets') actions, form fields' additional actions, and outline items'
 * actions, each followed through its `/Next` chain. (Document-level scripts in `/Names /JavaScript` are
 * PDFium's count.) One walk, bounded by the nodes it visits.
 */
export function actionFacts(cos: CosFile): ActionFacts {
  const catalog = cos.catalog;
  const seen = new Set<number>();
  let visited = 0;
  const fresh = (raw: PdfValue) => {
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) return false;
      seen.add(raw.num);
    }
    return visited++ < MAX_ACTION_NODES;
  };
  const actions: PdfValue[] = [];
  const holders = new Set<ActionHolder>();
  const addActions = (holder: PdfDict, kind: ActionHolder) => {
    const direct = holder.get('A') ?? holder.get('OpenAction');
    if (direct !== undefined) actions.push(direct);
    const additional = cos.dict(holder, 'AA');
    if (additional === undefined) return;
    holders.add(kind);
    for (const action of additional.values()) actions.push(action);
  };
  /** Every dictionary of a tree from `roots`, each once, through the `children` keys of each node. */
  const walk = (roots: PdfValue[], children: string[], visit: (node: PdfDict) => void) => {
    const stack = [...roots];
    while (stack.length > 0) {
      const raw = stack.pop()!;
      if (!fresh(raw)) continue;
      const node = cos.resolve(raw);
      if (!isDict(node)) continue;
      visit(node);
      for (const key of children) {
        const child = node.get(key);
        if (Array.isArray(child)) stack.push(...child);
        else if (child !== undefined) stack.push(child);
      }
    }
  };
  if (catalog) addActions(catalog, 'catalog');
  const root = (holder: PdfDict | undefined, key: string) => {
    const value = holder?.get(key);
    return value === undefined ? [] : [value];
  };
  // the page tree: each node's /AA (pages have one), and each page's annotations
  walk(root(catalog, 'Pages'), ['Kids'], (node) => {
    addActions(node, 'page');
    for (const annotation of cos.array(node, 'Annots')) {
      const dict = cos.resolve(annotation);
      if (isDict(dict)) addActions(dict, 'annotation');
    }
  });
  // form fields (a field's /AA holds its keystroke, format, validate and calculate scripts)
  walk(cos.array(cos.dict(catalog, 'AcroForm'), 'Fields'), ['Kids'], (field) => addActions(field, 'field'));
  // outline items, depth first through /First and /Next
  walk(root(cos.dict(catalog, 'Outlines'), 'First'), ['First', 'Next'], (item) =>
    addActions(item, 'annotation'),
  );
  // actions, through their /Next chains (an OpenAction that is a destination array is no action)
  const types = new Set<string>();
  walk(actions, ['Next'], (action) => {
    const type = nameOf(cos.get(action, 'S'));
    if (type === undefined) return;
    types.add(type === 'Named' ? `Named/${nameOf(cos.get(action, 'N')) ?? ''}` : type);
  });
  return {
    actions: [...types].sort().slice(0, MAX_LISTED),
    additional_actions: [...holders].sort(),
  };
}
