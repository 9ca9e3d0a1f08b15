/**
 * What a PDF signature's PKCS#7 object (RFC 2315 SignedData, DER) holds: its certificates and its signers, and
 * whether the first signer's certificate is among the certificates. Read by DER lengths only (the Contents
 * string is padded with zeros after the object); nothing is verified.
 */

export interface Pkcs7Summary {
  /** The `certificates` of the SignedData: how many. */
  certificateCount: number;
  /** The `signerInfos` of the SignedData: how many. */
  signerInfoCount: number;
  /**
   * A certificate with the serial number of the first signer's `issuerAndSerialNumber`; a signer named by
   * subject key identifier (CMS version 3) is taken as found when any certificate is there.
   */
  signerCertificatePresent: boolean;
}

interface Tlv {
  tag: number;
  /** The whole element, header and content. */
  start: number;
  contentStart: number;
  end: number;
}

const MAX_ELEMENTS = 10_000;
const SIGNED_DATA_OID = Uint8Array.of(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02);

/** The DER element at `at`, or undefined when its header or length runs past `limit`. */
function tlv(bytes: Uint8Array, at: number, limit: number): Tlv | undefined {
  if (at + 2 > limit) return undefined;
  const tag = bytes[at]!;
  // high tag numbers (0x1f) do not occur in the structures read here
  if ((tag & 0x1f) === 0x1f) return undefined;
  let length = bytes[at + 1]!;
  let contentStart = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || contentStart + count > limit) return undefined;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[contentStart + i]!;
    contentStart += count;
  }
  const end = contentStart + length;
  return end > limit ? undefined : { tag, start: at, contentStart, end };
}

/** The elements inside a constructed element, in order. */
function children(bytes: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.contentStart; at < parent.end && out.length < MAX_ELEMENTS;) {
    const child = tlv(bytes, at, parent.end);
    if (!child) return out;
    out.push(child);
    at = child.end;
  }
  return out;
}

const same = (bytes: Uint8Array, a: Tlv, b: Tlv) =>
  a.end - a.start === b.end - b.start &&
  bytes.subarray(a.start, a.end).every((byte, i) => byte === bytes[b.start + i]);

/** A certificate's serial number: its TBSCertificate's first field after the optional version. */
function certificateSerial(bytes: Uint8Array, certificate: Tlv): Tlv | undefined {
  const tbs = children(bytes, certificate)[0];
  if (!tbs || tbs.tag !== 0x30) return undefined;
  const fields = children(bytes, tbs);
  return fields[0]?.tag === 0xa0 ? fields[1] : fields[0];
}

/** The PKCS#7 object's summary; undefined when the bytes are not a DER SignedData content info. */
export function pkcs7Summary(bytes: Uint8Array): Pkcs7Summary | undefined {
  const info = tlv(bytes, 0, bytes.length);
  if (!info || info.tag !== 0x30) return undefined;
  const [oid, explicit] = children(bytes, info);
  if (!oid || oid.tag !== 0x06 || !explicit || explicit.tag !== 0xa0) return undefined;
  const oidBytes = bytes.subarray(oid.contentStart, oid.end);
  if (oidBytes.length !== SIGNED_DATA_OID.length || !oidBytes.every((b, i) => b === SIGNED_DATA_OID[i]))
    return undefined;
  const signedData = children(bytes, explicit)[0];
  if (!signedData || signedData.tag !== 0x30) return undefined;
  const fields = children(bytes, signedData);
  // version, digestAlgorithms, contentInfo, [0] certificates?, [1] crls?, signerInfos
  const certificates = fields.find((f, i) => i >= 3 && f.tag === 0xa0);
  const signerInfos = fields.at(-1);
  if (!signerInfos || signerInfos.tag !== 0x31) return undefined;
  const certs = certificates ? children(bytes, certificates).filter((c) => c.tag === 0x30) : [];
  const signers = children(bytes, signerInfos).filter((s) => s.tag === 0x30);
  return {
    certificateCount: certs.length,
    signerInfoCount: signers.length,
    signerCertificatePresent: signers[0] !== undefined && signerFound(bytes, signers[0], certs),
  };
}

function signerFound(bytes: Uint8Array, signer: Tlv, certs: Tlv[]): boolean {
  const identifier = children(bytes, signer)[1];
  if (!identifier) return false;
  if (identifier.tag !== 0x30) return certs.length > 0;
  const serial = children(bytes, identifier)[1];
  if (!serial) return false;
  // by serial number alone: an issuer's name may be encoded otherwise in the certificate (another string type)
  return certs.some((cert) => {
    const number = certificateSerial(bytes, cert);
    return number !== undefined && same(bytes, number, serial);
  });
}
