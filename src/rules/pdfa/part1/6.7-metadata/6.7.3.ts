import { rule, type Reason, type Rule } from '../../../rule.js';

/** The document information dictionary's entries and their XMP analogues, in the profile's test order. */
const ENTRIES: [number, string, string][] = [
  [1, 'CreationDate', 'xmp:CreateDate'],
  [2, 'Title', 'dc:title (its x-default item)'],
  [3, 'Author', 'dc:creator (with exactly one entry)'],
  [4, 'Subject', 'dc:description (its x-default item)'],
  [5, 'Keywords', 'pdf:Keywords'],
  [6, 'Creator', 'xmp:CreatorTool'],
  [7, 'Producer', 'pdf:Producer'],
  [8, 'ModDate', 'xmp:ModifyDate'],
];

/** ISO 19005-1, 6.7.3 Document information dictionary. */
export const rules: Rule[] = ENTRIES.map(([test, entry, analogue]) =>
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.7.3',
    test,
    object: 'info',
    check: 'xmp_info_agreement',
    says: `The information dictionary's /${entry}, when present, is equivalent to its XMP analogue ${analogue}`,
    fault: (info) => {
      const found = info.analogues.find((a) => a.entry === entry);
      if (!found || found.disagreement === null) return undefined;
      return `/${entry} is "${clip(found.value)}" but ${found.analogue} ${found.disagreement}`;
    },
    fix: `write the same value in /${entry} and in ${analogue.replace(/ \(.*\)$/, '')} (or remove /${entry})`,
  }),
);
export const reasons: Reason[] = [];

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);
