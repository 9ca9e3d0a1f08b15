import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.1.10 Filters. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.10',
    test: 1,
    object: 'filter',
    check: 'lzw_filters',
    says: 'No stream is coded with LZWDecode',
    fault: (filter) => (filter.name === 'LZWDecode' ? 'a stream coded with LZWDecode' : undefined),
    fix: 'code these streams with FlateDecode instead',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.10',
    test: 2,
    object: 'inline_image_filter',
    check: 'lzw_filters',
    says: 'No inline image is coded with LZWDecode (LZW)',
    fault: (filter) =>
      filter.name === 'LZWDecode' || filter.name === 'LZW' ? `coded with /${filter.name}` : undefined,
    fix: 'code these images with FlateDecode instead',
  }),
];
export const reasons: Reason[] = [];
