import type { PdfaIdentificationNode } from '../../../../pdf/model/metadata.js';
import { rule, type Reason, type Rule, type Specification } from '../../../rule.js';

type Entry = 'part' | 'conformance' | 'amd' | 'corr';

/** The PDF/A identification rules of a part (6.7.11, 6.6.4): its presence, part, level and prefixes. */
export function identificationRules(
  specifications: Specification[],
  clause: string,
  levels: readonly string[],
  prefixed: readonly Entry[],
): Rule[] {
  const prefixRules = prefixed.map((entry, i) =>
    rule({
      specifications,
      clause,
      test: 4 + i,
      object: 'pdfa_identification',
      check: 'xmp_pdfa_claim',
      says: `The PDF/A identification's ${entry} property is written with the prefix pdfaid`,
      fault: (id: PdfaIdentificationNode) => {
        const written = id[entry];
        return written && written.prefix !== 'pdfaid'
          ? `its ${entry} is written with the prefix "${written.prefix}"`
          : undefined;
      },
      fix: `write the property as pdfaid:${entry}, the namespace http://www.aiim.org/pdfa/ns/id/ bound to the prefix pdfaid`,
    }),
  );
  return [
    rule({
      specifications,
      clause,
      test: 1,
      object: 'pdfa_identification',
      check: 'xmp_pdfa_claim',
      says: "The catalog's XMP metadata identifies the PDF/A part and conformance level with the PDF/A identification schema",
      fault: (id) => (id.present ? undefined : 'it has no PDF/A identification (pdfaid) property'),
      fix: 'add pdfaid:part and pdfaid:conformance (namespace http://www.aiim.org/pdfa/ns/id/) to the XMP metadata',
    }),
    rule({
      specifications,
      clause,
      test: 3,
      object: 'pdfa_identification',
      check: 'xmp_pdfa_claim',
      says: `pdfaid:conformance is the file's conformance level: ${levels.join(', ')}`,
      fault: (id) =>
        !id.present || (id.conformance && levels.includes(id.conformance.text))
          ? undefined
          : id.conformance
            ? `pdfaid:conformance is "${id.conformance.text.slice(0, 20)}"`
            : 'it has no pdfaid:conformance',
      fix: `write pdfaid:conformance as the level the file conforms to (${levels.join(', ')})`,
    }),
    ...prefixRules,
  ];
}

/** The rule that pdfaid:part is `part`, the part of ISO 19005 the file is judged by. */
export const partRule = (specification: Specification, clause: string, part: number): Rule =>
  rule({
    specifications: [specification],
    clause,
    test: 2,
    object: 'pdfa_identification',
    check: 'xmp_pdfa_claim',
    says: `pdfaid:part is ${part}, the part of ISO 19005 the file conforms to`,
    fault: (id) => {
      if (!id.present) return undefined;
      if (!id.part) return 'it has no pdfaid:part';
      return id.part.text !== '' && Number(id.part.text) === part
        ? undefined
        : `pdfaid:part is "${id.part.text.slice(0, 20)}"`;
    },
    fix: `write pdfaid:part as ${part}`,
  });

/** ISO 19005-1, 6.7.11 Version and conformance level identification. */
export const rules: Rule[] = [
  partRule('ISO 19005-1', '6.7.11', 1),
  ...identificationRules(['ISO 19005-1'], '6.7.11', ['A', 'B'], ['part', 'conformance', 'amd']),
];
export const reasons: Reason[] = [];
