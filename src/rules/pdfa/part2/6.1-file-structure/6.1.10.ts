import { rule, type Reason, type Rule } from '../../../rule.js';

/** The filters an inline image may name (ISO 32000-1 Table 6 and their abbreviations, Table 94), LZW aside. */
const ALLOWED = new Set([
  'ASCIIHexDecode',
  'ASCII85Decode',
  'FlateDecode',
  'RunLengthDecode',
  'CCITTFaxDecode',
  'DCTDecode',
  'AHx',
  'A85',
  'Fl',
  'RL',
  'CCF',
  'DCT',
]);

/** ISO 19005-2 and -3, 6.1.10 Inline image dictionaries. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.10',
    test: 1,
    object: 'inline_image_filter',
    check: 'lzw_filters',
    says: 'An inline image names only standard filters: not LZW, LZWDecode, Crypt or any filter outside ISO 32000-1 Table 6',
    fault: (filter) => (ALLOWED.has(filter.name) ? undefined : `coded with /${filter.name}`),
    fix: 'code these images with FlateDecode (or another standard filter) instead',
  }),
];
export const reasons: Reason[] = [];
