/**
 * A typed notification between parts wired together at start-up: what an EventEmitter's string-named event
 * would be, with its name and payload checked by the compiler. Listeners run synchronously, in order.
 */
export class Signal<T = void> {
  private readonly listeners = new Set<(value: T) => void>();

  /** Adds a listener; returns its removal. */
  listen(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
}
