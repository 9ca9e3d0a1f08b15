import type { FixturePairs } from '../../fixtures.js';
import { stream } from '../../pdfa-file.js';
import { pdfuaFile, uaRef } from '../../pdfua-file.js';

const config = (dynamicRender: string) =>
  `<config xmlns="http://www.xfa.org/schema/xci/3.0/"><acrobat><acrobat7><dynamicRender>${dynamicRender}</dynamicRender></acrobat7></acrobat></config>`;

/** An XDP in one stream: a template and the config. */
const xdp = (dynamicRender: string) =>
  `<?xml version="1.0"?>\n<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"><subform name="form1"/></template>${config(dynamicRender)}</xdp:xdp>`;

/** A file whose interactive form has `xfa` as /XFA (an XFA form with no AcroForm fields). */
const withXfa = (xfa: string, objects: Uint8Array[]) =>
  pdfuaFile({ catalog: `/AcroForm ${uaRef(0)}`, objects: [`<< /Fields [] /XFA ${xfa} >>`, ...objects] });

export const fixtures: FixturePairs = {
  1: {
    pass: () => pdfuaFile(),
    fail: () => withXfa(uaRef(1), [stream('', xdp('required'))]),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // the clause forbids dynamic XFA only: a static form's layout is in the PDF, tagged as any other
  '7.15-1 a static XFA form (dynamicRender forbidden)': () =>
    withXfa(uaRef(1), [stream('', xdp('forbidden'))]),
  '7.15-1 a static XFA form in packets, its config with no dynamicRender': () =>
    withXfa(`[(template) ${uaRef(1)} (config) ${uaRef(2)}]`, [
      stream('', '<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"/>'),
      stream('', '<config xmlns="http://www.xfa.org/schema/xci/3.0/"><present/></config>'),
    ]),
};
