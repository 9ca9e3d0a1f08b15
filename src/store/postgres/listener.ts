import type pg from 'pg';

/**
 * One LISTEN connection per process for a notification channel, opened while anyone subscribes. A lost
 * connection is opened again a second later, and subscribers are told once it is back (a notification
 * may have been missed meanwhile). `connected` says whether notifications are being heard right now.
 */
export class ChannelListener {
  private readonly subscribers = new Set<() => void>();
  private client?: pg.Client;
  private retry?: NodeJS.Timeout;
  connected = false;

  constructor(
    private readonly channel: string,
    private readonly connect: () => pg.Client,
  ) {}

  subscribe(onNotify: () => void): () => void {
    this.subscribers.add(onNotify);
    if (!this.client && !this.retry) void this.open();
    return () => {
      this.subscribers.delete(onNotify);
      if (this.subscribers.size === 0) this.close();
    };
  }

  private notify(): void {
    for (const onNotify of this.subscribers) onNotify();
  }

  private async open(): Promise<void> {
    const client = this.connect();
    this.client = client;
    let lost = false;
    const reopen = () => {
      if (lost || this.client !== client) return;
      lost = true;
      this.connected = false;
      this.notify();
      this.client = undefined;
      client.end().catch(() => undefined);
      if (this.subscribers.size > 0) {
        this.retry = setTimeout(() => {
          this.retry = undefined;
          if (this.subscribers.size > 0) void this.open();
        }, 1000);
        this.retry.unref();
      }
    };
    client.on('error', reopen);
    client.on('end', reopen);
    client.on('notification', () => this.notify());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.connected = true;
      this.notify();
    } catch {
      reopen();
    }
  }

  /** Stops listening, whoever subscribed (the store is closing). */
  close(): void {
    this.subscribers.clear();
    this.connected = false;
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    client?.end().catch(() => undefined);
  }
}
