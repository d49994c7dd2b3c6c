/**
 * Page writes that overlap the work producing the next pages: compressing (zlib's threads) and inserting
 * (the database's thread or connection) a page while the analysis writes the next one's JSON. At most
 * `depth` writes wait; `drain` waits for all and throws the first failure, so none goes unseen.
 */
export class PagePipeline {
  private readonly inFlight: Promise<void>[] = [];
  constructor(private readonly depth = 4) {}

  async add(write: () => Promise<void>): Promise<void> {
    const started = write();
    started.catch(() => {}); // awaited below, or by drain
    this.inFlight.push(started);
    if (this.inFlight.length >= this.depth) await this.inFlight.shift();
  }

  async drain(): Promise<void> {
    const pending = this.inFlight.splice(0);
    await Promise.all(pending);
  }
}
