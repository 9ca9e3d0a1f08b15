import type { FixturePairs } from '../../../fixtures.js';
import { type NS, type Part, withExtension, wrongPrefix } from './xmp-fixtures.js';

/** The field each field rule speaks of, in the profile's order (ISO 19005-1 6.7.8-3 to -19). */
const FIELDS: [keyof typeof NS, string][] = [
  ['pdfaSchema', 'schema'],
  ['pdfaSchema', 'namespaceURI'],
  ['pdfaSchema', 'prefix'],
  ['pdfaSchema', 'property'],
  ['pdfaSchema', 'valueType'],
  ['pdfaProperty', 'name'],
  ['pdfaProperty', 'valueType'],
  ['pdfaProperty', 'category'],
  ['pdfaProperty', 'description'],
  ['pdfaType', 'type'],
  ['pdfaType', 'namespaceURI'],
  ['pdfaType', 'prefix'],
  ['pdfaType', 'description'],
  ['pdfaType', 'field'],
  ['pdfaField', 'name'],
  ['pdfaField', 'valueType'],
  ['pdfaField', 'description'],
];

const pass = (part: Part) => withExtension(part);

/** A field's fail file: written with a wrong prefix, or (where the rule also asks it) with a wrong value. */
function fieldFail(prefix: keyof typeof NS, name: string): (part: Part) => Uint8Array {
  if (prefix === 'pdfaProperty' && name === 'category')
    return (part) => withExtension(part, (x) => x.replace('>external<', '>outside<'));
  if (prefix === 'pdfaField' && name === 'valueType')
    return (part) =>
      withExtension(part, (x) => x.replace('<pdfaField:valueType>Integer<', '<pdfaField:valueType>Integr<'));
  return (part) => wrongPrefix(part, prefix, name);
}

/** The extension schema fixtures, by their index in the profile's order (0: undefined fields, 1: container). */
export const extensionFixtures = [
  // a field the PDF/A Schema value type does not define
  {
    pass,
    fail: (part: Part) =>
      withExtension(part, (x) =>
        x.replace('<pdfaSchema:prefix>', '<pdfaSchema:version>1</pdfaSchema:version>\n<pdfaSchema:prefix>'),
      ),
  },
  // the container is a Seq
  {
    pass,
    fail: (part: Part) =>
      withExtension(part, (x) => x.replace('<rdf:Bag>', '<rdf:Seq>').replace('</rdf:Bag>', '</rdf:Seq>')),
  },
  ...FIELDS.map(([prefix, name]) => ({ pass, fail: fieldFail(prefix, name) })),
];

export const fixtures: FixturePairs = Object.fromEntries(extensionFixtures.map((pair, i) => [i + 1, pair]));
