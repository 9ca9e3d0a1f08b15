import type { IccProfileNode, OutputIntentNode } from '../../../pdf/model/color.js';

/** The profile headers a clause allows: device classes, colour spaces, and the first ICC version it does not. */
interface ProfileAllowance {
  deviceClasses: readonly string[];
  colorSpaces: readonly string[];
  versionBelow: number;
}

type ProfileHeader = Pick<IccProfileNode, 'deviceClass' | 'colorSpace' | 'version'>;

/** What in a readable profile's header a clause does not allow ("a profile of device class ..."), if anything. */
function headerFault(profile: ProfileHeader, allowed: ProfileAllowance): string | undefined {
  const faults: string[] = [];
  if (!allowed.deviceClasses.includes(profile.deviceClass ?? ''))
    faults.push(`device class "${profile.deviceClass ?? ''}"`);
  if (!allowed.colorSpaces.includes(profile.colorSpace ?? ''))
    faults.push(`colour space "${profile.colorSpace ?? ''}"`);
  if ((profile.version ?? 0) >= allowed.versionBelow)
    faults.push(`version ${profile.version?.toFixed(1) ?? ''}`);
  return faults.length > 0 ? `a profile of ${faults.join(', ')}` : undefined;
}

const OUTPUT_CLASSES = ['prtr', 'mntr'];
const OUTPUT_SPACES = ['RGB', 'CMYK', 'GRAY'];

/**
 * What is wrong with an output intent's profile: an output or display profile of gray, RGB or CMYK before ICC
 * version `versionBelow` (3 for PDF/A-1, 5 for PDF/A-2 and -3).
 */
export const outputProfileFault =
  (versionBelow: number) =>
  (intent: OutputIntentNode): string | undefined => {
    const profile = intent.profile;
    if (!profile)
      return intent.subtype === 'GTS_PDFA1' ? 'a PDF/A output intent without /DestOutputProfile' : undefined;
    if (!profile.decoded) return undefined; // a filter this reader lacks: unknown, not wrong
    if (!profile.readable) return 'a /DestOutputProfile that is not an ICC profile';
    return headerFault(profile, { deviceClasses: OUTPUT_CLASSES, colorSpaces: OUTPUT_SPACES, versionBelow });
  };

const INPUT_CLASSES = ['prtr', 'mntr', 'scnr', 'spac'];
const INPUT_SPACES = ['RGB', 'CMYK', 'GRAY', 'Lab'];

/**
 * What is wrong with an ICCBased space's profile: one of a usual class and colour space before ICC version
 * `versionBelow` (3 for PDF/A-1: ICC.1:1998-09; 5 for PDF/A-2 and -3: up to ISO 15076-1).
 */
export const inputProfileFault =
  (versionBelow: number) =>
  (profile: IccProfileNode): string | undefined => {
    if (profile.role !== 'input' || !profile.decoded) return undefined;
    if (!profile.readable) return 'an ICCBased colour space whose profile is not an ICC profile';
    return headerFault(profile, { deviceClasses: INPUT_CLASSES, colorSpaces: INPUT_SPACES, versionBelow });
  };
