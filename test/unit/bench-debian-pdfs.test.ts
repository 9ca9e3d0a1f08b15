import { describe, expect, it } from 'vitest';
import { debianPdfManifest } from '../../bench/debian-pdfs.js';

// bench scenario 14 fetches these files by package and checks each by sha256: a row it cannot check would be
// measured unchecked, and a licence left out would be a file whose terms nobody recorded
describe("the mixed set's manifest (bench/debian-pdfs.tsv)", () => {
  const manifest = debianPdfManifest();

  it('lists 60 PDFs of 6,366 pages, each with its package, version, licence, sha256 and size', () => {
    expect(manifest).toHaveLength(60);
    expect(manifest.reduce((sum, pdf) => sum + pdf.pages, 0)).toBe(6366);
    for (const pdf of manifest) {
      expect(pdf.package).toMatch(/^[a-z0-9][a-z0-9.+-]+$/);
      expect(pdf.version).toMatch(/^[0-9A-Za-z.+~:-]+$/);
      expect(pdf.licence.length).toBeGreaterThan(1);
      expect(pdf.path).toMatch(/^usr\/[^\s]+\.pdf(\.gz)?$/);
      expect(pdf.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(pdf.pages).toBeGreaterThan(0);
      expect(pdf.bytes).toBeGreaterThan(0);
    }
  });

  it('names each file once, and mixes small files, manuals and two manuals of over 1,000 pages', () => {
    const keys = manifest.map((pdf) => `${pdf.package}:${pdf.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(manifest.filter((pdf) => pdf.pages <= 5).length).toBeGreaterThanOrEqual(30);
    expect(manifest.filter((pdf) => pdf.pages > 5 && pdf.pages <= 200).length).toBeGreaterThanOrEqual(15);
    expect(manifest.filter((pdf) => pdf.pages > 1000)).toHaveLength(2);
  });
});
