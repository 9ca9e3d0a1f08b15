/**
 * What a parser thread keeps between tasks: the documents it opened last (the oldest opened is closed first)
 * and, in each, the pages it read last (the least recently read is closed first). Loading a page parses its
 * whole content, often the costliest step of a task, so a task sent where its page is still loaded saves it.
 */
export const OPEN_DOCUMENTS = 4;
export const KEPT_PAGES = 2;

/**
 * The pool's picture of one thread's cache, kept by the same rules the thread follows. It can be wrong only
 * in the safe direction: a thread that releases its pages under memory pressure just loads them again.
 */
export class ThreadCacheMirror {
  /** Open documents in the order they were opened; each with its kept pages, least recently read first. */
  private readonly documents = new Map<string, number[]>();

  /** A task was sent: the thread opens `path` if it is not open, and keeps `page` loaded after it. */
  read(path: string, page?: number): void {
    let pages = this.documents.get(path);
    if (!pages) {
      pages = [];
      this.documents.set(path, pages);
      for (const oldest of this.documents.keys()) {
        if (this.documents.size <= OPEN_DOCUMENTS) break;
        this.documents.delete(oldest);
      }
    }
    if (page === undefined) return;
    const at = pages.indexOf(page);
    if (at !== -1) pages.splice(at, 1);
    pages.push(page);
    if (pages.length > KEPT_PAGES) pages.shift();
  }

  /** A task on `page` failed: the thread closed the page rather than keep it. */
  drop(path: string, page: number): void {
    const pages = this.documents.get(path);
    const at = pages?.indexOf(page) ?? -1;
    if (at !== -1) pages!.splice(at, 1);
  }

  /** The thread closed the document (its run ended). */
  forget(path: string): void {
    this.documents.delete(path);
  }

  hasPage(path: string, page: number): boolean {
    return this.documents.get(path)?.includes(page) ?? false;
  }
}
