import { rule, type Reason, type Rule, type Specification } from '../../../rule.js';

/** The rules of the packet header's deprecated attributes, as each part numbers them (6.7.5, 6.6.2.1). */
export const headerAttributeRules = (
  specifications: Specification[],
  clause: string,
  first: number,
): Rule[] =>
  (['bytes', 'encoding'] as const).map((attribute, i) =>
    rule({
      specifications,
      clause,
      test: first + i,
      object: 'xmp_packet',
      check: 'xmp_packet',
      says: `The XMP packet header has no ${attribute} attribute`,
      fault: (packet) => {
        const value = packet.header?.attributes[attribute];
        return value === undefined ? undefined : `its header has ${attribute}="${value.slice(0, 40)}"`;
      },
      fix: `remove the ${attribute} attribute from the <?xpacket begin=…?> header of the XMP packet`,
    }),
  );

/** ISO 19005-1, 6.7.5 XMP header. */
export const rules: Rule[] = headerAttributeRules(['ISO 19005-1'], '6.7.5', 1);
export const reasons: Reason[] = [];
