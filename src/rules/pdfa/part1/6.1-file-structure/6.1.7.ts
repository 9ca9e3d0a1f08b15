import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type ClauseTests } from '../../shared/numbering.js';

const EOL_NAMES = { CRLF: 'CR LF', LF: 'LF', CR: 'a CR alone', none: 'no end-of-line marker' } as const;

/** The stream object rules (exact /Length, end-of-line markers, no external data), as each part numbers them. */
export const streamObjectRules = (at: ClauseTests): Rule[] => [
  rule({
    ...at(1),
    object: 'stream',
    check: 'stream_syntax',
    says: 'A stream’s /Length is the number of bytes between the end of line after `stream` and the one before `endstream`',
    fault: (stream) =>
      stream.lengthActual === undefined
        ? undefined
        : stream.lengthDeclared === undefined
          ? 'its /Length is not a whole number of bytes'
          : stream.lengthDeclared !== stream.lengthActual
            ? `its /Length is ${stream.lengthDeclared} and its data is ${stream.lengthActual} bytes`
            : undefined,
    fix: 'save the file again with a PDF/A writer (it writes each stream’s exact /Length)',
  }),
  rule({
    ...at(2),
    object: 'stream',
    check: 'stream_syntax',
    says: 'The `stream` keyword is followed by CR LF or LF, and `endstream` is preceded by an end-of-line marker',
    fault: (stream) =>
      stream.afterStreamKeyword !== 'CRLF' && stream.afterStreamKeyword !== 'LF'
        ? `the stream keyword is followed by ${EOL_NAMES[stream.afterStreamKeyword]}`
        : stream.eolBeforeEndstream === false
          ? 'the endstream keyword is not preceded by an end-of-line marker'
          : undefined,
    fix: 'save the file again with a PDF/A writer (it ends the stream keyword with LF and starts endstream on a new line)',
  }),
  rule({
    ...at(3),
    object: 'stream',
    check: 'external_streams',
    says: 'A stream dictionary has no /F, /FFilter or /FDecodeParms (no data in an external file)',
    fault: (stream) => {
      const keys = stream.keys.filter((k) => k === 'F' || k === 'FFilter' || k === 'FDecodeParms');
      return keys.length > 0 ? `its dictionary has ${keys.map((k) => `/${k}`).join(', ')}` : undefined;
    },
    fix: 'embed the stream’s data in the file itself and remove /F, /FFilter and /FDecodeParms',
  }),
];

/** ISO 19005-1, 6.1.7 Stream objects. */
export const rules: Rule[] = streamObjectRules(clauseTests(['ISO 19005-1'], '6.1.7'));
export const reasons: Reason[] = [];
