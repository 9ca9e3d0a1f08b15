import type { CosFile } from '../../cos/file.js';
import { isStream, latin1, nameOf, type PdfDict, PdfRef, type PdfValue } from '../../cos/syntax.js';

/** The three device colour spaces, by their full names. */
export type DeviceSpace = 'DeviceGray' | 'DeviceRGB' | 'DeviceCMYK';

/** The device colour spaces by every name content gives them (inline images abbreviate them). */
export const DEVICE_NAMES: Readonly<Record<string, DeviceSpace>> = {
  DeviceGray: 'DeviceGray',
  G: 'DeviceGray',
  DeviceRGB: 'DeviceRGB',
  RGB: 'DeviceRGB',
  DeviceCMYK: 'DeviceCMYK',
  CMYK: 'DeviceCMYK',
};

/** The resource that replaces each device space where it is in force (ISO 32000-1, 8.6.5.6). */
export const DEFAULT_SPACE: Readonly<Record<DeviceSpace, string>> = {
  DeviceGray: 'DefaultGray',
  DeviceRGB: 'DefaultRGB',
  DeviceCMYK: 'DefaultCMYK',
};

/** The colour space families' names, inline images' abbreviations included. */
export function familyOf(cos: CosFile, space: PdfValue | undefined): string | undefined {
  const resolved = cos.resolve(space);
  const name = nameOf(resolved) ?? nameOf(Array.isArray(resolved) ? cos.resolve(resolved[0]) : undefined);
  return name === 'I' ? 'Indexed' : name;
}

/**
 * A colour space operand or entry as the space it stands for: a device name or `Pattern` as it is, another
 * name looked up in the resources' /ColorSpace dictionary. Undefined when the name is not there.
 */
export function namedSpace(
  cos: CosFile,
  space: PdfValue | undefined,
  resources: PdfDict | undefined,
): PdfValue | undefined {
  const resolved = cos.resolve(space);
  const name = nameOf(resolved);
  if (name === undefined || DEVICE_NAMES[name] !== undefined || name === 'Pattern') return space;
  return cos.dict(resources, 'ColorSpace')?.get(name);
}

/** An ICC profile's header fields (ICC.1, 7.2), as read from the profile stream. */
export interface IccHeader {
  /** The profile stream decoded (a filter this reader lacks leaves everything unknown). */
  decoded: boolean;
  /** The data is an ICC profile: at least a header's 128 bytes, and `acsp` at byte 36. */
  readable: boolean;
  /** The profile version, major.minor (bytes 8-9): 2.1, 4.3. */
  version: number | null;
  /** Bytes 12-15 trimmed: `mntr`, `prtr`, `scnr`, `spac`, ... */
  deviceClass: string | null;
  /** Bytes 16-19 trimmed: `RGB`, `CMYK`, `GRAY`, `Lab`, ... */
  colorSpace: string | null;
}

const MAX_ICC_BYTES = 16 * 1024 * 1024;

/** The header of an ICC profile stream (only its first 128 bytes are looked at). */
export function iccHeader(cos: CosFile, profile: PdfValue | undefined): IccHeader {
  const unknown: IccHeader = {
    decoded: false,
    readable: false,
    version: null,
    deviceClass: null,
    colorSpace: null,
  };
  const stream = cos.resolve(profile);
  if (!isStream(stream)) return unknown;
  const bytes = cos.streamBytes(stream, MAX_ICC_BYTES);
  if (!bytes) return unknown;
  if (bytes.length < 128 || latin1(bytes, 36, 40) !== 'acsp') return { ...unknown, decoded: true };
  return {
    decoded: true,
    readable: true,
    version: bytes[8]! + (bytes[9]! >> 4) / 10,
    deviceClass: latin1(bytes, 12, 16).trim(),
    colorSpace: latin1(bytes, 16, 20).trim(),
  };
}

/** `N 0 R`'s number, when the value is a reference. */
export const refNumber = (value: PdfValue | undefined): number | undefined =>
  value instanceof PdfRef ? value.num : undefined;
