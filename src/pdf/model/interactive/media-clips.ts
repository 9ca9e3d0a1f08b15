import type { CosFile } from '../../cos/file.js';
import { isDict, nameOf, type PdfDict, type PdfValue } from '../../cos/syntax.js';

/** Renditions and media clips followed from one action, at most. */
const MAX_RENDITION_NODES = 1_000;

/**
 * The media clip data dictionaries (/S /MCD) a rendition plays (ISO 32000-1 13.2.3, 13.2.4): a media
 * rendition's /C, through media clip sections' /D, and each rendition of a selector's /R.
 */
export function renditionMediaClips(
  cos: CosFile,
  rendition: PdfValue | undefined,
): { raw: PdfValue; dict: PdfDict }[] {
  const clips: { raw: PdfValue; dict: PdfDict }[] = [];
  const seen = new Set<object>();
  const stack: PdfValue[] = rendition === undefined ? [] : [rendition];
  for (let visited = 0; stack.length > 0 && visited < MAX_RENDITION_NODES; visited++) {
    const raw = stack.pop()!;
    const node = cos.resolve(raw);
    if (!isDict(node) || seen.has(node)) continue;
    seen.add(node);
    const type = nameOf(cos.get(node, 'S'));
    if (type === 'MR' && node.get('C') !== undefined) stack.push(node.get('C')!);
    else if (type === 'SR') stack.push(...cos.array(node, 'R'));
    else if (type === 'MCS' && node.get('D') !== undefined) stack.push(node.get('D')!);
    else if (type === 'MCD') clips.push({ raw, dict: node });
  }
  return clips;
}
