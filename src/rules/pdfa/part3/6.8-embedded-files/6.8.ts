import { rule, type Reason, type Rule } from '../../../rule.js';

/** A MIME type as RFC 2045 writes one, `type/subtype`. */
const MIME_TYPE = /^[-\w+.]+\/[-\w+.]+$/;

/** ISO 19005-3, 6.8 Embedded files (its own rules; 6.8-2 is shared with ISO 19005-2). */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-3'],
    clause: '6.8',
    test: 1,
    object: 'embedded_file',
    check: 'embedded_files',
    says: 'An embedded file’s MIME type is given by its Subtype (application/octet-stream when not known)',
    fault: (file) =>
      file.subtype === null
        ? 'it has no MIME type (/Subtype)'
        : MIME_TYPE.test(file.subtype)
          ? undefined
          : `its /Subtype "${file.subtype}" is not a MIME type`,
    fix: 'give the embedded file stream its MIME type as /Subtype (e.g. /application#2Fxml; application/octet-stream when not known)',
  }),
  rule({
    specifications: ['ISO 19005-3'],
    clause: '6.8',
    test: 3,
    object: 'file_specification',
    check: 'associated_files',
    says: 'The file specification of an embedded file has the AFRelationship key',
    fault: (spec) =>
      spec.embeddedFile && spec.afRelationship === null
        ? 'it embeds a file and has no /AFRelationship'
        : undefined,
    fix: 'say how the file relates to the document: /AFRelationship /Source, /Data, /Alternative, /Supplement or /Unspecified',
  }),
  rule({
    specifications: ['ISO 19005-3'],
    clause: '6.8',
    test: 4,
    object: 'file_specification',
    check: 'associated_files',
    says: 'An embedded file is an associated file: an AF array of the document or of a part of it names its file specification',
    fault: (spec) =>
      spec.embeddedFile && !spec.associated ? 'it embeds a file and no /AF array names it' : undefined,
    fix: 'associate the file with the document or the part it belongs to: list its file specification in an /AF array (the catalog’s, a page’s, ...)',
  }),
];
export const reasons: Reason[] = [];
