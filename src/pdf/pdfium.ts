import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';

/** Why a document did not open, as PDFium's FPDF_GetLastError tells it. */
export class PdfOpenError extends Error {
  constructor(
    readonly kind: 'invalid_pdf' | 'encrypted',
    message: string,
  ) {
    super(message);
  }
}

/** The wasm heap reached its cap, or PDFium aborted: this instance must not be used again. */
export class PdfiumAborted extends Error {}

const FPDF_ERR_FILE = 2;
const FPDF_ERR_FORMAT = 3;
const FPDF_ERR_PASSWORD = 4;
const FPDF_ERR_SECURITY = 5;

/** The part of the WebAssembly global used here (the project's TypeScript libs do not declare it). */
interface WasmGlobal {
  Module: new (bytes: Uint8Array) => object;
  instantiate(module: object, imports: object): Promise<object>;
  RuntimeError: new (message?: string) => Error;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmGlobal }).WebAssembly;

let compiled: WasmModule | undefined;

/** A compiled PDFium; it can be handed to worker threads, which then share its machine code. */
export type WasmModule = object;

/**
 * Compiling the 4.6 MB module is the costly part of a start. The pool compiles it once and hands it to each
 * thread: a replacement thread starts at once, and code V8 optimised for one thread serves them all.
 */
export function pdfiumModule(): WasmModule {
  if (!compiled) {
    const require = createRequire(import.meta.url);
    compiled = new wasm.Module(readFileSync(require.resolve('@embedpdf/pdfium/pdfium.wasm')));
  }
  return compiled;
}

interface EmscriptenImports {
  env: Record<string, unknown> & { emscripten_resize_heap: (size: number) => number };
}

/**
 * PDFium calls made once per page object, straight on the wasm exports: Emscripten's wrapper converts every
 * argument, at several times the cost of a direct call (bench/README.md, "Figures behind the code"). Only
 * functions whose arguments and result are plain numbers; a FPDF_BOOL comes back as 0 or 1.
 */
const DIRECT_CALLS = [
  'FPDFPage_CountObjects',
  'FPDFPage_GetObject',
  'FPDFPageObj_GetType',
  'FPDFPageObj_GetMatrix',
  'FPDFTextObj_GetFont',
  'FPDFFont_GetIsEmbedded',
  'FPDFImageObj_GetImagePixelSize',
  'FPDFFormObj_CountObjects',
  'FPDFFormObj_GetObject',
  'FPDFAnnot_GetObjectCount',
  'FPDFAnnot_GetObject',
] as const;

export type DirectCalls = {
  [Name in (typeof DIRECT_CALLS)[number]]: (...args: Parameters<WrappedPdfiumModule[Name]>) => number;
};

function directCalls(lib: WrappedPdfiumModule): DirectCalls {
  const exports = lib.pdfium.wasmExports as unknown as Record<string, unknown>;
  const calls: Record<string, unknown> = {};
  for (const name of DIRECT_CALLS) {
    if (typeof exports[name] !== 'function') throw new Error(`PDFium does not export ${name}`);
    calls[name] = exports[name];
  }
  return calls as unknown as DirectCalls;
}

export interface OpenDocument {
  readonly handle: number;
  close(): void;
}

/**
 * One PDFium instance. Its heap may grow to `heapLimitBytes` and no further: past it PDFium aborts, the
 * caller gets PdfiumAborted, and the instance is discarded (wasm memory never shrinks).
 */
export class Pdfium {
  private aborted = false;
  private readonly readBlock: number;
  private readonly files = new Map<number, number>();
  private nextFile = 1;

  readonly direct: DirectCalls;

  private constructor(
    readonly lib: WrappedPdfiumModule,
    private readonly heapLimitBytes: number,
  ) {
    this.direct = directCalls(lib);
    const module = lib.pdfium;
    // FPDF_FILEACCESS.m_GetBlock(param, position, buffer, size): PDFium reads the file on demand
    this.readBlock = module.addFunction((param: number, position: number, buffer: number, size: number) => {
      const fd = this.files.get(param);
      if (fd === undefined) return 0;
      try {
        return readSync(fd, this.heap(), buffer, size, position >>> 0) === size ? 1 : 0;
      } catch {
        return 0;
      }
    }, 'iiiii');
  }

  static async create(heapLimitBytes: number, module: WasmModule = pdfiumModule()): Promise<Pdfium> {
    const lib = await init({
      instantiateWasm(imports: object, receive: (instance: object) => void) {
        const env = (imports as unknown as EmscriptenImports).env;
        const grow = env.emscripten_resize_heap;
        env.emscripten_resize_heap = (size: number) => (size >>> 0 > heapLimitBytes ? 0 : grow(size));
        void wasm.instantiate(module, imports).then(receive);
        return {};
      },
      print: () => undefined,
      printErr: () => undefined,
    } as Parameters<typeof init>[0]);
    lib.PDFiumExt_Init();
    return new Pdfium(lib, heapLimitBytes);
  }

  heap(): Uint8Array {
    return (this.lib.pdfium as unknown as { HEAPU8: Uint8Array }).HEAPU8;
  }

  get heapBytes(): number {
    return this.heap().length;
  }

  get isAborted(): boolean {
    return this.aborted;
  }

  /** Runs PDFium code; an abort inside it poisons the instance. */
  call<T>(work: () => T): T {
    if (this.aborted) throw new PdfiumAborted('The PDF engine was stopped by an earlier failure');
    try {
      return work();
    } catch (error) {
      if (error instanceof wasm.RuntimeError || String(error).includes('Aborted(')) {
        this.aborted = true;
        throw new PdfiumAborted(
          `The parser used more than ${Math.round(this.heapLimitBytes / 1048576)} MB, or the PDF engine aborted`,
        );
      }
      throw error;
    }
  }

  malloc(size: number): number {
    const pointer = this.lib.pdfium.wasmExports.malloc(size);
    if (pointer === 0) throw new PdfiumAborted('The PDF engine could not allocate memory');
    return pointer;
  }

  free(pointer: number): void {
    this.lib.pdfium.wasmExports.free(pointer);
  }

  /** Calls `read(buffer, length)` twice, as PDFium's string getters want: once for the length, once to copy. */
  readString(read: (buffer: number, length: number) => number, encoding: 'utf16' | 'utf8'): string {
    const length = read(0, 0);
    if (length <= (encoding === 'utf16' ? 2 : 1)) return '';
    const buffer = this.malloc(length);
    try {
      read(buffer, length);
      return encoding === 'utf16'
        ? this.lib.pdfium.UTF16ToString(buffer)
        : this.lib.pdfium.UTF8ToString(buffer);
    } finally {
      this.free(buffer);
    }
  }

  openFile(path: string): OpenDocument {
    const fd = openSync(path, 'r');
    const length = fstatSync(fd).size;
    if (length === 0) {
      closeSync(fd);
      throw new PdfOpenError('invalid_pdf', 'The file is empty');
    }
    const fileId = this.nextFile++;
    this.files.set(fileId, fd);
    const access = this.malloc(12);
    const release = () => {
      this.free(access);
      this.files.delete(fileId);
      closeSync(fd);
    };
    let handle: number;
    try {
      this.lib.pdfium.setValue(access, length, 'i32');
      this.lib.pdfium.setValue(access + 4, this.readBlock, 'i32');
      this.lib.pdfium.setValue(access + 8, fileId, 'i32');
      handle = this.call(() => this.lib.FPDF_LoadCustomDocument(access, ''));
    } catch (error) {
      if (!this.aborted) release();
      throw error;
    }
    if (!handle) {
      const code = this.lib.FPDF_GetLastError();
      release();
      if (code === FPDF_ERR_PASSWORD || code === FPDF_ERR_SECURITY) {
        throw new PdfOpenError('encrypted', 'The PDF is encrypted with a password');
      }
      throw new PdfOpenError(
        'invalid_pdf',
        code === FPDF_ERR_FORMAT
          ? 'The file is not a PDF or is damaged beyond repair'
          : code === FPDF_ERR_FILE
            ? 'The file could not be read'
            : `The PDF could not be opened (PDFium error ${code})`,
      );
    }
    return {
      handle,
      close: () => {
        if (!this.aborted) this.lib.FPDF_CloseDocument(handle);
        release();
      },
    };
  }
}
