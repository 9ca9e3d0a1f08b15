import { rule, type Reason, type Rule } from '../../../rule.js';
import { rendered } from './font-use.js';

/** ISO 19005-1, 6.3.4 Embedded font programs. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.3.4',
    test: 1,
    object: 'font',
    check: 'fonts_embedded',
    says: 'The program of every font text is shown with is embedded, unless the text is only shown in rendering mode 3',
    fault: embeddingFault,
    fix: 'embed the font program (subset or whole) when the file is made, or convert the text to outlines',
  }),
];

/** Shared with ISO 19005-2 6.2.11.4.1-1. Type 3 fonts are their own glyphs; a Type 0 font's CIDFont is judged. */
export function embeddingFault(font: {
  drawnModes: number[];
  subtype: string | undefined;
  fontFileKey: string | undefined;
  baseFont: string | undefined;
}): string | undefined {
  if (
    font.subtype === 'Type3' ||
    font.subtype === 'Type0' ||
    !rendered(font) ||
    font.fontFileKey !== undefined
  )
    return undefined;
  return `${font.baseFont ?? 'the font'} is not embedded`;
}

export const reasons: Reason[] = [];
