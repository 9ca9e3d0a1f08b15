import { rule, type Reason, type Rule } from '../../../rule.js';

/** The filters of ISO 32000-1 7.4, Table 6, but LZWDecode; Crypt is judged apart. */
const STANDARD = new Set([
  'ASCIIHexDecode',
  'ASCII85Decode',
  'FlateDecode',
  'RunLengthDecode',
  'CCITTFaxDecode',
  'JBIG2Decode',
  'DCTDecode',
  'JPXDecode',
]);

/** ISO 19005-2 and -3, 6.1.7.2 Filters. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.7.2',
    test: 1,
    object: 'filter',
    check: 'lzw_filters',
    says: 'Streams use the standard filters of ISO 32000-1 Table 6 only, not LZWDecode, and Crypt only as Identity',
    fault: (filter) =>
      STANDARD.has(filter.name)
        ? undefined
        : filter.name === 'Crypt'
          ? // the decode parameters' /Name is Identity by default (ISO 32000-1 Table 14)
            (filter.parmsName ?? 'Identity') === 'Identity'
            ? undefined
            : `a Crypt filter named /${filter.parmsName}`
          : filter.name === 'LZWDecode'
            ? 'a stream coded with LZWDecode'
            : `a stream coded with /${filter.name}, which is no standard filter`,
    fix: 'code these streams with FlateDecode (or another standard filter) instead',
  }),
];
export const reasons: Reason[] = [];
