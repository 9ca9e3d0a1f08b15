import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { deflateSync } from 'node:zlib';

/**
 * Hostile PDFs written byte by byte: each is a small file that costs a careless parser a great deal of time
 * or memory. They are valid enough that poppler opens every one of them.
 */

type Body = string | Buffer;

/** A PDF of the given objects (object 1 must be the catalog), with a correct xref table. */
export function pdfOf(objects: Body[]): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    chunks.push(chunk);
    offset += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`];
  for (const at of offsets) xref.push(`${String(at).padStart(10, '0')} 00000 n \n`);
  xref.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`);
  chunks.push(Buffer.from(xref.join('')));
  return Buffer.concat(chunks);
}

/** A Flate-compressed stream object. */
export function streamOf(dictionary: string, data: Buffer): Buffer {
  const packed = deflateSync(data, { level: 9 });
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`),
    packed,
    Buffer.from('\nendstream'),
  ]);
}

const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/** `pages` pages that all draw the same content stream (object 4). */
function pagesSharing(
  pages: number,
  content: Buffer,
  extraResources = '',
  extraObjects: Body[] = [],
): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${5 + extraObjects.length + i} 0 R`).join(' ');
  const objects: Body[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    HELVETICA,
    streamOf('', content),
    ...extraObjects,
  ];
  for (let i = 0; i < pages; i++) {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 3 0 R >> ${extraResources} >> >>`,
    );
  }
  return pdfOf(objects);
}

/** One content stream of `count` path operators `0 0 m` (20 million fit in about 175 KB). */
export function operatorBomb(count = 20_000_000): Buffer {
  return pagesSharing(1, Buffer.alloc(count * 6, '0 0 m\n'));
}

/** `pages` pages sharing one content stream of `chars` characters of text drawing. */
export function sharedHugeContent(pages = 200, chars = 5_000_000): Buffer {
  const unit = 'BT /F1 9 Tf 72 720 Td (spam) Tj ET\n';
  return pagesSharing(pages, Buffer.alloc(chars, unit));
}

/** Graphics states nested `depth` deep around one line of text. */
export function deepNesting(depth = 200_000): Buffer {
  const content = `${'q '.repeat(depth)}BT /F1 12 Tf 72 720 Td (deep) Tj ET${' Q'.repeat(depth)}`;
  return pagesSharing(1, Buffer.from(content));
}

/** An image that declares `side` x `side` pixels (10 billion by default) backed by a few bytes. */
export function hugeDeclaredImage(side = 100_000): Buffer {
  const image = streamOf(
    `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8`,
    Buffer.alloc(1024),
  );
  const content = Buffer.from('q 400 0 0 400 100 200 cm /Im1 Do Q BT /F1 12 Tf 72 720 Td (huge) Tj ET');
  return pagesSharing(1, content, '/XObject << /Im1 5 0 R >>', [image]);
}

/** A page that stamps one stencil mask (/ImageMask) `count` times: pdfimages lists each use. */
export function stencilMasks(count: number): Buffer {
  const mask = streamOf(
    '/Type /XObject /Subtype /Image /Width 8 /Height 8 /ImageMask true /BitsPerComponent 1',
    Buffer.alloc(8, 0xaa),
  );
  const draws = Array.from(
    { length: count },
    (_, i) => `q 20 0 0 20 ${40 + (i % 20) * 25} ${60 + Math.floor(i / 20) * 25} cm /M1 Do Q`,
  );
  const content = Buffer.from(`${draws.join('\n')}\nBT /F1 12 Tf 72 760 Td (masks) Tj ET`);
  return pagesSharing(1, content, '/XObject << /M1 5 0 R >>', [mask]);
}

/**
 * `pages` blank pages under a two-level page tree, written to `path` as it is made (a million pages is
 * about 80 MB).
 */
export async function blankPagesFile(path: string, pages: number): Promise<void> {
  const fanout = Math.ceil(Math.sqrt(pages));
  const nodes = Math.ceil(pages / fanout);
  const out = createWriteStream(path);
  let offset = 0;
  const offsets: number[] = [];
  // a million objects written one by one were a million stream writes: they go out a mebibyte at a time
  let pending = '';
  const flush = async () => {
    if (!out.write(pending)) await once(out, 'drain');
    pending = '';
  };
  const write = async (text: string) => {
    offset += Buffer.byteLength(text);
    pending += text;
    if (pending.length > 1 << 20) await flush();
  };
  const object = async (body: string) => {
    offsets.push(offset);
    await write(`${offsets.length} 0 obj\n${body}\nendobj\n`);
  };
  await write('%PDF-1.7\n');
  await object('<< /Type /Catalog /Pages 2 0 R >>');
  const nodeId = (n: number) => 3 + n;
  const pageId = (p: number) => 3 + nodes + p;
  await object(
    `<< /Type /Pages /Count ${pages} /Kids [${Array.from({ length: nodes }, (_, n) => `${nodeId(n)} 0 R`).join(' ')}] >>`,
  );
  for (let n = 0; n < nodes; n++) {
    const first = n * fanout;
    const last = Math.min(pages, first + fanout);
    const kids = [];
    for (let p = first; p < last; p++) kids.push(`${pageId(p)} 0 R`);
    await object(`<< /Type /Pages /Parent 2 0 R /Count ${last - first} /Kids [${kids.join(' ')}] >>`);
  }
  for (let p = 0; p < pages; p++) {
    await object(`<< /Type /Page /Parent ${nodeId(Math.floor(p / fanout))} 0 R /MediaBox [0 0 612 792] >>`);
  }
  const xrefAt = offset;
  await write(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`);
  let block = '';
  for (const at of offsets) {
    block += `${String(at).padStart(10, '0')} 00000 n \n`;
    if (block.length > 1 << 20) {
      await write(block);
      block = '';
    }
  }
  await write(
    `${block}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`,
  );
  await flush();
  out.end();
  await once(out, 'finish');
}

/**
 * `pages` pages of a line of text each, but page `at` (1-based) draws `content` (a stream object's bytes,
 * `<< ... >> stream ... endstream`): a page that brings down the parser among pages that do not.
 */
export function amongOrdinaryPages(content: Buffer, pages = 6, at = 3): Buffer {
  const text = streamOf('', Buffer.from('BT /F1 12 Tf 72 720 Td (ordinary page) Tj ET'));
  const kids = Array.from({ length: pages }, (_, i) => `${6 + i} 0 R`).join(' ');
  const objects: Body[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    HELVETICA,
    text,
    content,
  ];
  for (let i = 1; i <= pages; i++)
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${i === at ? 5 : 4} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
    );
  return pdfOf(objects);
}

/** The content stream of a file whose object 4 is its page's content (as malformed/flate-bomb-512MB.pdf). */
export function fourthObjectStream(file: Buffer): Buffer {
  const start = file.indexOf('4 0 obj');
  return file.subarray(file.indexOf('<<', start), file.indexOf('endstream', start) + 'endstream'.length);
}
