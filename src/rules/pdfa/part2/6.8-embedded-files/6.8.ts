import { CosFile } from '../../../../pdf/cos/file.js';
import { latin1 } from '../../../../pdf/cos/syntax.js';
import type { EmbeddedFileNode } from '../../../../pdf/model/interactive.js';
import { pdfaIdentification } from '../../../../pdf/model/interactive/pdfa-claim.js';
import { MODEL_FAMILIES } from '../../../families.js';
import { judgeFile } from '../../../judge-file.js';
import {
  rule,
  ruleId,
  type Reason,
  type Rule,
  type RuleContext,
  type RuleFailure,
  type Specification,
} from '../../../rule.js';

/**
 * How deep embedded files are judged: the file's own (depth 1) and those they embed (depth 2). A file embedded
 * deeper is not judged, and so breaks no rule: unknown is not a fault.
 */
export const MAX_EMBEDDED_DEPTH = 2;
/**
 * How many files one embedded file's own embedded files are judged for: without it a file of N attachments that
 * each embed N more would be judged N * N times. Those past it break no rule (unknown is not a fault).
 */
export const MAX_NESTED_JUDGED = 8;
const MAX_LISTED = 5;

/** How many embedded files are being judged, one inside the other, right now (judging is synchronous). */
let depth = 0;
/** How many files the embedded file being judged at depth 1 has had judged inside it. */
let nestedJudged = 0;

const PARTS: Record<string, Specification> = { '1': 'ISO 19005-1', '2': 'ISO 19005-2' };

/**
 * An embedded file that is not a PDF/A-1 or PDF/A-2 file: judged as the part its XMP metadata claims, by the
 * rules of that part (level B) written here.
 */
function embeddedConformanceFault(file: EmbeddedFileNode, context: RuleContext): string | undefined {
  if (depth >= MAX_EMBEDDED_DEPTH) return undefined;
  if (depth > 0 && nestedJudged++ >= MAX_NESTED_JUDGED) return undefined;
  const bytes = file.bytes;
  if (bytes === undefined) return undefined;
  if (!latin1(bytes, 0, Math.min(bytes.length, 1024)).includes('%PDF-')) return 'it is not a PDF file';
  const cos = new CosFile(bytes, bytes.length);
  const claim = pdfaIdentification(cos);
  if (claim === null) return 'it is a PDF file that claims no PDF/A conformance';
  const specification = PARTS[claim.part];
  if (specification === undefined) return `it claims PDF/A-${claim.part}, not PDF/A-1 or PDF/A-2`;
  if (depth === 0) nestedJudged = 0;
  depth++;
  let broken: RuleFailure[];
  try {
    const rules = context.rules.filter((r) => r.specifications.includes(specification));
    broken = judgeFile(cos, rules, MODEL_FAMILIES).filter((f) => f.specification === specification);
  } finally {
    depth--;
  }
  if (broken.length === 0) return undefined;
  const ids =
    broken.slice(0, MAX_LISTED).map(ruleId).join(', ') + (broken.length > MAX_LISTED ? ', ...' : '');
  const first = broken[0]!.examples[0];
  return `it claims PDF/A-${claim.part} and breaks ${specification} ${ids}${first ? ` (${first.slice(0, 160)})` : ''}`;
}

/** ISO 19005-2, 6.8 Embedded files (the rules ISO 19005-3 shares, and PDF/A-2's own). */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.8',
    test: 2,
    object: 'file_specification',
    check: 'embedded_files',
    says: 'The file specification of an embedded file has the F and UF keys',
    fault: (spec) =>
      !spec.embeddedFile || (spec.hasF && spec.hasUF)
        ? undefined
        : `it embeds a file and has no ${[spec.hasF ? '' : '/F', spec.hasUF ? '' : '/UF'].filter(Boolean).join(' or ')}`,
    fix: 'give the embedded file’s file specification both a file name (/F) and a Unicode file name (/UF)',
  }),
  rule({
    specifications: ['ISO 19005-2'],
    clause: '6.8',
    test: 5,
    object: 'embedded_file',
    check: 'embedded_pdfa',
    says: 'An embedded file is itself a PDF/A-1 or PDF/A-2 file',
    fault: embeddedConformanceFault,
    fix: 'embed only PDF/A-1 or PDF/A-2 files (convert the attachment to PDF/A, or remove it), or claim PDF/A-3',
  }),
];
export const reasons: Reason[] = [];
