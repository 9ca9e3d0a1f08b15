import { latin1, stream, type Bytes, type PdfaEdits } from '../../pdfa-file.js';
import { pdfuaFile, type PdfuaEdits } from '../../pdfua-file.js';
import { type0Page } from '../../font-programs.js';

/**
 * The fonts fixtures of ISO 14289-1 7.21, made from the PDF/A fonts fixtures' page edits (`fontPage`,
 * `type0Page`: objects from 8) as PDF/UA files (objects from 10): every reference to an object from 8 on is
 * moved up by two, and the page's text is tagged as the marked content 0 of a paragraph (P) in place of the
 * default figure. A stream's data (a font program) is left as it is: only its dictionary is renumbered.
 */
const FIRST_PDFA_OBJECT = 8;
const FIRST_PDFUA_OBJECT = 10;
const SHIFT = FIRST_PDFUA_OBJECT - FIRST_PDFA_OBJECT;

const renumber = (text: string) =>
  text.replace(/\b(\d+) 0 R\b/g, (ref, num: string) =>
    Number(num) >= FIRST_PDFA_OBJECT ? `${Number(num) + SHIFT} 0 R` : ref,
  );

const decoder = new TextDecoder('latin1');

function renumberObject(body: Bytes): Bytes {
  if (typeof body === 'string') return renumber(body);
  const text = decoder.decode(body);
  const at = text.indexOf('\nstream\n');
  if (at < 0) return latin1(renumber(text));
  const head = latin1(renumber(text.slice(0, at)));
  const out = new Uint8Array(head.length + body.length - at);
  out.set(head);
  out.set(body.subarray(at), head.length);
  return out;
}

/** The paragraph holding the page's marked content 0, in place of the default figure. */
export const PARAGRAPH = '<< /Type /StructElem /S /P /P 7 0 R /Pg 3 0 R /K 0 >>';

/** A PDF/UA-1 file of a PDF/A font page's edits (its text tagged as a paragraph), with `more` edits. */
export function uaFontFile(edits: PdfaEdits, more: PdfuaEdits = {}): Uint8Array {
  const content = typeof edits.content === 'string' ? edits.content : decoder.decode(edits.content);
  return pdfuaFile({
    resources: renumber(edits.resources ?? ''),
    content: `/P << /MCID 0 >> BDC\n${content}EMC\n`,
    figure: PARAGRAPH,
    objects: (edits.objects ?? []).map(renumberObject),
    ...more,
  });
}

/** A ToUnicode CMap stream mapping each of `codes` (two bytes, or one with `bytes` 1) to `unicode[i]`. */
export function toUnicodeStream(codes: number[], unicode: string[], bytes: 1 | 2 = 2): Uint8Array {
  const digits = bytes * 2;
  const lines = codes.map(
    (code, i) => `<${code.toString(16).padStart(digits, '0').toUpperCase()}> <${unicode[i]!}>`,
  );
  return stream(
    '',
    `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<${'00'.repeat(bytes)}> <${'FF'.repeat(bytes)}>
endcodespacerange
${codes.length} beginbfchar
${lines.join('\n')}
endbfchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end
`,
  );
}

/** The ToUnicode CMap of the Type 0 fixture font: codes 1 and 2 are A and B. */
export const AB_TO_UNICODE = toUnicodeStream([1, 2], ['0041', '0042']);

/** The Type 0 fixture page (`type0Page`) with the ToUnicode CMap of A and B as object 12 (14 once renumbered). */
export const type0WithUnicode = (options: Parameters<typeof type0Page>[0] = {}) =>
  type0Page({
    ...options,
    encoding: `${options.encoding ?? '/Identity-H'} /ToUnicode ${12 + (options.extra?.length ?? 0)} 0 R`,
    extra: [...(options.extra ?? []), AB_TO_UNICODE],
  });
