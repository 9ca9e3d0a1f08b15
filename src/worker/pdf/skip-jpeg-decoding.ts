/**
 * Preflight needs an image's size and placement, never its pixels, and decoding a scanned page's JPEG in
 * JavaScript is most of what pdf.js spends on it. pdf.js hands JPEGs to the platform's ImageDecoder when
 * there is one (browsers); this parser thread installs one that decodes nothing. Width and height still
 * come from the image dictionary, as pdf.js reads them before decoding. Imported before pdf.js, in parser
 * threads only: nothing that renders pixels runs there.
 */
class SizeOnlyImageDecoder {
  static isTypeSupported(type: string): Promise<boolean> {
    return Promise.resolve(type === 'image/jpeg');
  }

  async decode(): Promise<{ image: { close(): void } }> {
    return { image: { close() {} } };
  }

  close(): void {}
}

const scope = globalThis as { ImageDecoder?: unknown };
scope.ImageDecoder ??= SizeOnlyImageDecoder;
