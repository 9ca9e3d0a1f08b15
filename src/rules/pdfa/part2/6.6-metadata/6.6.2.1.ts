import { rule, type Reason, type Rule } from '../../../rule.js';
import { catalogMetadataRule } from '../../part1/6.7-metadata/6.7.2.js';
import { headerAttributeRules } from '../../part1/6.7-metadata/6.7.5.js';
import { serializationRule } from '../../part1/6.7-metadata/6.7.9.js';

const PARTS = ['ISO 19005-2', 'ISO 19005-3'] as const;

/** ISO 19005-2 and -3, 6.6.2.1 Metadata streams, general. */
export const rules: Rule[] = [
  catalogMetadataRule([...PARTS], '6.6.2.1', 1),
  ...headerAttributeRules([...PARTS], '6.6.2.1', 2),
  serializationRule([...PARTS], '6.6.2.1', 4),
  rule({
    specifications: [...PARTS],
    clause: '6.6.2.1',
    test: 5,
    object: 'xmp_packet',
    check: 'xmp_packet',
    says: 'Each XMP packet is encoded in UTF-8',
    fault: (packet) =>
      packet.encoding === 'utf-8' ? undefined : `it is encoded in ${packet.encoding.toUpperCase()}`,
    fix: 'write the XMP packet in UTF-8',
  }),
];
export const reasons: Reason[] = [];
