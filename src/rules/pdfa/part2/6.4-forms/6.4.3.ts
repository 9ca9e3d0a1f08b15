import type { SignatureNode } from '../../../../pdf/model/interactive.js';
import { rule, type Reason, type Rule } from '../../../rule.js';

const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;

/**
 * A byte range that does not cover the whole file but the signature's value: [0, a, b, c] where the gap from a
 * to b is the /Contents hexadecimal string, and b + c ends the file, or (a signature of an earlier revision)
 * ends a revision, at an %%EOF marker.
 */
function byteRangeFault(s: SignatureNode): string | undefined {
  const range = s.byteRange;
  if (range === null || range.length !== 4) return 'its /ByteRange is not four numbers';
  const [start, , gapEnd, tail] = range as [number, number, number, number];
  if (start !== 0) return `its byte range starts at byte ${start}`;
  if (s.gapFirstByte !== LESS_THAN || s.gapLastByte !== GREATER_THAN)
    return 'the bytes its range leaves out are not the /Contents string';
  const end = gapEnd + tail;
  if (end === s.fileSize || /%%EOF\s*$/.test(s.beforeCoveredEnd ?? '')) return undefined;
  return `its byte range ends at byte ${end} of ${s.fileSize}`;
}

/** ISO 19005-2 and -3, 6.4.3 Digital signatures. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.4.3',
    test: 1,
    object: 'signature',
    check: 'signatures',
    says: 'A signature’s digest is computed over the whole file but the signature value (its ByteRange)',
    fault: byteRangeFault,
    fix: 'sign the file again: the /ByteRange must cover the whole file except the /Contents string',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.4.3',
    test: 2,
    object: 'signature',
    check: 'signatures',
    says: 'A PKCS#7 signature includes the signer’s X.509 signing certificate',
    fault: (s) =>
      s.pkcs7 === undefined || s.pkcs7.signerCertificatePresent
        ? undefined
        : s.pkcs7.certificateCount === 0
          ? 'its PKCS#7 object holds no certificate'
          : 'its PKCS#7 object does not hold the signer’s certificate',
    fix: 'sign the file again with the signing certificate embedded in the signature',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.4.3',
    test: 3,
    object: 'signature',
    check: 'signatures',
    says: 'A PKCS#7 signature has a single signer (one SignerInfo)',
    fault: (s) =>
      s.pkcs7 === undefined || s.pkcs7.signerInfoCount === 1
        ? undefined
        : `its PKCS#7 object has ${s.pkcs7.signerInfoCount} signers`,
    fix: 'sign the file again with one signer per signature',
  }),
];
export const reasons: Reason[] = [];
