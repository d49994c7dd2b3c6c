import { CHUNK_BYTES, type CheckedChunk, type ClaimChunk, checkChunk } from "./claim-chunk.js";

/**
 * An upload's claims gathered into chunks as the splitter cuts them: each full chunk is checked in a check
 * thread while the stream goes on, and every chunk's answer is taken in order (`absorb`), so
 * problems are listed and parts spooled in the claims' order. The last chunk is checked here: an upload of
 * one chunk never waits for the thread.
 */
export class ChunkedChecks {
  private pieces: Buffer[] = [];
  private ends: number[] = [];
  private bytes = 0;
  private firstIndex = 0;
  private readonly inFlight: Promise<CheckedChunk>[] = [];
  private readonly maxInFlight: number;

  constructor(
    /** checks a full chunk, in a thread (upload/chunk-checker.ts) */
    private readonly check: (chunk: ClaimChunk) => Promise<CheckedChunk>,
    private readonly absorb: (checked: CheckedChunk) => void,
    /** the threads `check` hands the chunks to (0: it checks them on the upload's own thread) */
    threads: number,
  ) {
    // one chunk beyond the threads (so memory stays a few chunks): a thread ending its chunk finds the next
    // one waiting rather than idling while the stream fills it (1,000,000 items: the upload 3.3-3.6 ->
    // 3.0-3.1 s); two per thread let the stream run further ahead, and 10,000,000 items took 10 % longer
    this.maxInFlight = Math.max(1, threads) + 1;
  }

  /** the next claim's JSON and its index in the batch */
  add(claim: Buffer, index: number): void {
    if (this.ends.length > 0 && this.bytes + claim.length > CHUNK_BYTES) {
      const checking = this.check(this.take());
      checking.catch(() => {}); // answered in order by caughtUp or finish
      this.inFlight.push(checking);
    }
    if (this.ends.length === 0) this.firstIndex = index;
    this.pieces.push(claim);
    this.bytes += claim.length;
    this.ends.push(this.bytes);
  }

  /** resolves once fewer chunks than the threads may hold are being checked, their answers taken in order */
  async caughtUp(): Promise<void> {
    while (this.inFlight.length >= this.maxInFlight)
      this.absorb(await (this.inFlight.shift() as Promise<CheckedChunk>));
  }

  /** every chunk's answer taken, the last chunk checked here after the others */
  async finish(): Promise<void> {
    while (this.inFlight.length > 0) this.absorb(await (this.inFlight.shift() as Promise<CheckedChunk>));
    if (this.ends.length > 0) this.absorb(checkChunk(this.take()));
  }

  /** the upload failed: the chunks being checked are let go */
  abandon(): void {
    this.inFlight.length = 0;
    this.pieces = [];
    this.ends = [];
  }

  private take(): ClaimChunk {
    const chunk = {
      firstIndex: this.firstIndex,
      bytes: Buffer.concat(this.pieces, this.bytes),
      ends: this.ends,
    };
    this.pieces = [];
    this.ends = [];
    this.bytes = 0;
    return chunk;
  }
}
