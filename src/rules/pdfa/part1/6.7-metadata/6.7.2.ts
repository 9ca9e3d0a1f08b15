import type { MetadataStreamNode } from '../../../../pdf/model/metadata.js';
import { rule, type Reason, type Rule, type Specification } from '../../../rule.js';

/** What is wrong with the catalog's metadata stream as a metadata stream (ISO 32000-1, 14.3.2); shared with 6.6.2.1. */
export function catalogMetadataFault(stream: MetadataStreamNode): string | undefined {
  if (!stream.ofCatalog) return undefined;
  if (!stream.isStream) return 'the catalog has no /Metadata stream';
  if (stream.type !== 'Metadata')
    return `its /Type is ${stream.type === null ? 'missing' : `/${stream.type}`}, not /Metadata`;
  if (stream.subtype !== 'XML')
    return `its /Subtype is ${stream.subtype === null ? 'missing' : `/${stream.subtype}`}, not /XML`;
  return undefined;
}

/** The rule of the catalog's metadata stream, as each part numbers it. */
export const catalogMetadataRule = (specifications: Specification[], clause: string, test: number): Rule =>
  rule({
    specifications,
    clause,
    test,
    object: 'metadata_stream',
    check: 'xmp_metadata_stream',
    says: 'The catalog has a /Metadata stream with /Type /Metadata and /Subtype /XML',
    fault: catalogMetadataFault,
    fix: 'add the XMP metadata to the catalog as a stream with /Type /Metadata /Subtype /XML',
  });

/** ISO 19005-1, 6.7.2 Properties (the metadata stream). */
export const rules: Rule[] = [
  catalogMetadataRule(['ISO 19005-1'], '6.7.2', 1),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.7.2',
    test: 2,
    object: 'metadata_stream',
    check: 'xmp_metadata_stream',
    says: "The catalog's metadata stream has no /Filter",
    fault: (stream) =>
      stream.ofCatalog && stream.filters.length > 0
        ? `it is filtered (${stream.filters.map((f) => `/${f}`).join(' ')})`
        : undefined,
    fix: "write the catalog's XMP metadata stream unfiltered (remove /Filter and store the packet as it is)",
  }),
];
export const reasons: Reason[] = [];
