import type { CosFile } from '../../cos/file.js';
import { isDict, isStream, nameOf, textString } from '../../cos/syntax.js';
import type { ModelNode } from '../node.js';
import { iccHeader, type IccHeader, refNumber } from './spaces.js';

/** An ICC profile stream: an output intent's (`output`) or an ICCBased colour space's (`input`). */
export interface IccProfileNode extends ModelNode, IccHeader {
  role: 'output' | 'input';
  /** The profile stream's object number; undefined for a direct one (never a stream in a valid file). */
  object: number | undefined;
  /** The stream dictionary's /N, the number of colour components it declares; null when absent. */
  components: number | null;
}

/** One entry of the catalog's /OutputIntents. */
export interface OutputIntentNode extends ModelNode {
  /** /S: `GTS_PDFA1`, `GTS_PDFX`, ... */
  subtype: string | undefined;
  identifier: string | undefined;
  /** /DestOutputProfile's header; undefined when the entry has none. */
  profile: (IccHeader & { object: number | undefined }) | undefined;
  /** The entry has a /DestOutputProfileRef (ISO 15930-7, Annex A). */
  hasDestOutputProfileRef: boolean;
}

/** The catalog's /OutputIntents array as a whole. */
export interface OutputIntentsNode extends ModelNode {
  count: number;
  /** The entries that have a /DestOutputProfile. */
  withProfile: number;
  /** The distinct objects those profiles are; a direct value counts as one of its own. */
  distinctProfiles: number;
}

const MAX_INTENTS = 64;

interface IntentsRead {
  intents: OutputIntentNode[];
  profiles: IccProfileNode[];
  array: OutputIntentsNode | undefined;
  /**
   * The first PDF/A (`GTS_PDFA1`) output intent, with its profile's colour space (its header's, else told by
   * /N; null when neither can be read); undefined when the file has none.
   */
  pdfa: { colorSpace: string | null } | undefined;
}

const cache = new WeakMap<CosFile, IntentsRead>();

/** The file's output intents, read once per file (every page's device colour is judged against them). */
export function outputIntents(cos: CosFile): IntentsRead {
  let found = cache.get(cos);
  if (!found) {
    found = readIntents(cos);
    cache.set(cos, found);
  }
  return found;
}

function readIntents(cos: CosFile): IntentsRead {
  const entries = cos.array(cos.catalog, 'OutputIntents').slice(0, MAX_INTENTS);
  const intents: OutputIntentNode[] = [];
  const profiles: IccProfileNode[] = [];
  const distinct = new Set<unknown>();
  let withProfile = 0;
  let pdfa: IntentsRead['pdfa'];
  entries.forEach((entry, i) => {
    const intent = cos.resolve(entry);
    if (!isDict(intent)) return;
    const where = `output intent ${i + 1}${refNumber(entry) !== undefined ? ` (object ${refNumber(entry)})` : ''}`;
    const raw = intent.get('DestOutputProfile');
    const stream = cos.resolve(raw);
    const subtype = nameOf(cos.get(intent, 'S'));
    let profile: OutputIntentNode['profile'];
    if (raw !== undefined) {
      withProfile++;
      distinct.add(refNumber(raw) ?? raw);
      const header = iccHeader(cos, stream);
      profile = { ...header, object: refNumber(raw) };
      const n = isStream(stream) ? cos.get(stream.stream.dict, 'N') : undefined;
      profiles.push({
        where: `${where}, its profile${profile.object !== undefined ? ` (object ${profile.object})` : ''}`,
        role: 'output',
        object: profile.object,
        components: typeof n === 'number' ? n : null,
        ...header,
      });
      if (subtype === 'GTS_PDFA1' && !pdfa)
        pdfa = {
          colorSpace: profile.colorSpace ?? (typeof n === 'number' ? (COMPONENT_SPACE[n] ?? null) : null),
        };
    }
    if (subtype === 'GTS_PDFA1' && !pdfa) pdfa = { colorSpace: null };
    intents.push({
      where,
      subtype,
      identifier: textString(cos.get(intent, 'OutputConditionIdentifier')),
      profile,
      hasDestOutputProfileRef: intent.has('DestOutputProfileRef'),
    });
  });
  const array =
    entries.length > 0
      ? {
          where: "the catalog's /OutputIntents",
          count: intents.length,
          withProfile,
          distinctProfiles: distinct.size,
        }
      : undefined;
  return { intents, profiles, array, pdfa };
}

/** The process colour space a profile of N components is, when its header cannot say. */
const COMPONENT_SPACE: Readonly<Record<number, string>> = { 1: 'GRAY', 3: 'RGB', 4: 'CMYK' };
