/**
 * Which standard structure types may hold which (ISO 32000-1 14.8.4.3.3 lists, 14.8.4.3.4 tables and 14.8.4.3.2
 * tables of contents), as ISO 14289-1 7.2 asks content to be tagged: the children a grouping element takes,
 * and the parent an element needs. Types not named here are not judged.
 */
const CHILDREN: Readonly<Record<string, ReadonlySet<string>>> = {
  Table: new Set(['TR', 'THead', 'TBody', 'TFoot', 'Caption']),
  THead: new Set(['TR']),
  TBody: new Set(['TR']),
  TFoot: new Set(['TR']),
  TR: new Set(['TH', 'TD']),
  L: new Set(['LI', 'Caption', 'L']),
  LI: new Set(['Lbl', 'LBody']),
  TOC: new Set(['TOCI', 'TOC', 'Caption']),
  TOCI: new Set(['Lbl', 'Reference', 'NonStruct', 'P', 'TOC']),
};

const PARENTS: Readonly<Record<string, ReadonlySet<string>>> = {
  TR: new Set(['Table', 'THead', 'TBody', 'TFoot']),
  TH: new Set(['TR']),
  TD: new Set(['TR']),
  THead: new Set(['Table']),
  TBody: new Set(['Table']),
  TFoot: new Set(['Table']),
  LI: new Set(['L']),
  LBody: new Set(['LI']),
  TOCI: new Set(['TOC']),
};

/** What is wrong with an element of type `role` inside one of type `parent` (undefined: the root). */
export function nestingProblem(role: string, parent: string | undefined): string | undefined {
  const allowed = parent === undefined ? undefined : CHILDREN[parent];
  if (allowed && !allowed.has(role)) return `${role} inside ${parent}`;
  const parents = PARENTS[role];
  if (parents && (parent === undefined || !parents.has(parent)))
    return `${role} outside ${[...parents].join(', ')}${parent === undefined ? '' : ` (inside ${parent})`}`;
  return undefined;
}

/**
 * What is wrong with a Table's children, given their types in order (ISO 32000-1 14.8.4.3.4): at most one
 * Caption, first or last; at most one THead and one TFoot; rows either all in THead, TBody and TFoot or none.
 */
export function tableProblems(children: readonly string[]): string[] {
  const problems: string[] = [];
  const count = (type: string) => children.filter((child) => child === type).length;
  for (const type of ['Caption', 'THead', 'TFoot'])
    if (count(type) > 1) problems.push(`a Table with more than one ${type}`);
  const inner = children.slice(1, -1);
  if (count('Caption') === 1 && inner.includes('Caption')) problems.push("a Caption between a Table's rows");
  if (count('TR') > 0 && children.some((child) => ['THead', 'TBody', 'TFoot'].includes(child)))
    problems.push('a Table with rows both in and outside THead, TBody or TFoot');
  return problems;
}
