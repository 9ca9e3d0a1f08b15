import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/**
 * Writes a valid one-page PDF of exactly `size` bytes: a normal page plus one unreferenced stream of
 * filler, so the parser (which reads by ranges) touches a few KB however large the file is.
 */
export async function writeLargePdf(path: string, size: number): Promise<void> {
  const head = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const content = 'BT /F1 24 Tf 72 720 Td (Benchmark upload) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = head;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const fillerNumber = objects.length + 1;
  const fillerOffset = Buffer.byteLength(body, 'latin1');
  const trailerFor = (fillerLength: number) => {
    const afterFiller =
      fillerOffset +
      Buffer.byteLength(`${fillerNumber} 0 obj\n<< /Length ${fillerLength} >>\nstream\n`, 'latin1') +
      fillerLength +
      '\nendstream\nendobj\n'.length;
    const entries = [...offsets, fillerOffset]
      .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
      .join('');
    return `xref\n0 ${fillerNumber + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${fillerNumber + 1} /Root 1 0 R >>\nstartxref\n${afterFiller}\n%%EOF\n`;
  };
  // the filler length changes the digits of the offsets only in their zero padding: solve once
  let fillerLength = size - fillerOffset - 200;
  for (let i = 0; i < 3; i++) {
    const fixed =
      Buffer.byteLength(`${fillerNumber} 0 obj\n<< /Length ${fillerLength} >>\nstream\n`, 'latin1') +
      '\nendstream\nendobj\n'.length +
      Buffer.byteLength(trailerFor(fillerLength), 'latin1');
    fillerLength = size - fillerOffset - fixed;
  }
  if (fillerLength < 0) throw new Error(`a PDF cannot be ${size} bytes`);
  const out = createWriteStream(path);
  const write = async (chunk: Buffer) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write(Buffer.from(`${body}${fillerNumber} 0 obj\n<< /Length ${fillerLength} >>\nstream\n`, 'latin1'));
  const block = Buffer.alloc(1024 * 1024, 0x20);
  for (let left = fillerLength; left > 0; left -= block.length)
    await write(left >= block.length ? block : block.subarray(0, left));
  await write(Buffer.from(`\nendstream\nendobj\n${trailerFor(fillerLength)}`, 'latin1'));
  out.end();
  await once(out, 'finish');
}
