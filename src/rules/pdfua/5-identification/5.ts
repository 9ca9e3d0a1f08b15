import { rule, type Reason, type Rule } from '../../rule.js';
import type { PdfuaIdentificationEntry } from '../../../pdf/model/metadata/pdfua.js';

const SPEC = ['ISO 14289-1'] as const;

/** A property of the identification schema keeps its rule when absent or written with the prefix pdfuaid. */
const prefixFault = (entry: PdfuaIdentificationEntry | null, name: string) =>
  entry === null || entry.prefix === 'pdfuaid'
    ? undefined
    : `pdfuaid:${name} is written with the prefix "${entry.prefix}"`;

const prefixRule = (test: number, name: string) =>
  rule({
    specifications: SPEC,
    clause: '5',
    test,
    object: 'pdfua_identification',
    check: 'xmp_pdfua_claim',
    says: `The PDF/UA identification's ${name} property is written with the namespace prefix pdfuaid`,
    fault: (id) => prefixFault(id[name as 'part' | 'amd' | 'corr'], name),
    fix: `write the ${name} property as pdfuaid:${name}, declaring xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"`,
  });

/** ISO 14289-1, 5 Version identification. */
export const rules: Rule[] = [
  rule({
    specifications: SPEC,
    clause: '5',
    test: 1,
    object: 'pdfua_identification',
    check: 'xmp_pdfua_claim',
    says: "The catalog's XMP metadata identifies the PDF/UA part with the PDF/UA identification schema",
    fault: (id) =>
      id.present ? undefined : 'no property of the PDF/UA identification schema (pdfuaid:part)',
    fix: 'add pdfuaid:part with the value 1 to the XMP metadata, in the namespace http://www.aiim.org/pdfua/ns/id/',
  }),
  rule({
    specifications: SPEC,
    clause: '5',
    test: 2,
    object: 'pdfua_identification',
    check: 'xmp_pdfua_claim',
    says: 'The value of pdfuaid:part is 1, the part of ISO 14289 the file conforms to',
    fault: (id) => {
      // a file with no identification at all breaks 5-1, not this rule
      if (!id.present) return undefined;
      if (id.part === null) return 'the PDF/UA identification has no part property';
      return /^\+?0*1$/.test(id.part.text) ? undefined : `pdfuaid:part is "${id.part.text.slice(0, 40)}"`;
    },
    fix: 'set pdfuaid:part to 1',
  }),
  prefixRule(3, 'part'),
  prefixRule(4, 'amd'),
  prefixRule(5, 'corr'),
];

export const reasons: Reason[] = [];
