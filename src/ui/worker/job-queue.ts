/**
 * Messages to a worker whose handlers load on demand, delivered in the order they came: while a
 * handler's code loads, later messages (for any job) wait behind it; once every handler needed is
 * loaded, a message is handled at once, in the same task, as a statically imported handler would be.
 */
export class JobQueue<Name extends string, Handler> {
  private readonly loaded = new Map<Name, Handler>();
  private readonly loading = new Map<Name, Promise<Handler>>();
  /** Deliveries waiting for a handler still loading, oldest first. */
  private waiting: { name: Name; deliver: (handler: Handler) => void }[] = [];

  constructor(
    private readonly loaders: Readonly<Record<Name, () => Promise<Handler>>>,
    private readonly onLoadError: (error: unknown) => void,
  ) {}

  push(name: Name, deliver: (handler: Handler) => void): void {
    const handler = this.loaded.get(name);
    if (handler !== undefined && this.waiting.length === 0) return deliver(handler);
    this.waiting.push({ name, deliver });
    this.load(name);
  }

  private load(name: Name): void {
    if (this.loaded.has(name) || this.loading.has(name)) return;
    const pending = this.loaders[name]();
    this.loading.set(name, pending);
    pending.then(
      (handler) => {
        this.loading.delete(name);
        this.loaded.set(name, handler);
        this.drain();
      },
      (error: unknown) => {
        this.loading.delete(name);
        this.waiting = this.waiting.filter((entry) => entry.name !== name);
        this.onLoadError(error);
        this.drain();
      },
    );
  }

  /** Delivers waiting messages in order, up to the first whose handler is not loaded yet. */
  private drain(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0];
      const handler = this.loaded.get(next.name);
      if (handler === undefined) return;
      this.waiting.shift();
      next.deliver(handler);
    }
  }
}
