/**
 * A batch's results cut into the pages the database stores: every claim in `all`, and each in the view of
 * its status, RESULT_PAGE_CLAIMS to a page. The same code whether the pages are written on the analysis's
 * thread or in a thread of their own (results-thread.ts), so both store the same bytes.
 */
import { ClaimResultEncoder, type ResultSource } from "../../engine/fwa/result-bytes.js";
import { statusOf } from "../../engine/fwa/types.js";
import type { ResultView } from "./repo.js";

/** a full page (or a view's last): its claims' JSON array as UTF-8 */
export interface ResultPage {
  view: ResultView;
  page: number;
  claims: number;
  items: number;
  json: Uint8Array;
}

/** a page being filled: its claims' JSON so far, in a buffer reused from page to page */
interface PendingPage {
  bytes: Uint8Array;
  length: number;
  claims: number;
  items: number;
  page: number;
}

/** how a page is compressed for storage, on either thread (fast: pages are written once, read rarely) */
export const PAGE_GZIP = { level: 1 } as const;

const OPEN_BRACKET = 0x5b;
const COMMA = 0x2c;
const CLOSE_BRACKET = 0x5d;

/**
 * Claims' JSON into pages, copied at once into the buffers of their views: kept as strings until the page
 * was full, a page's claims outlived the collector's young generation and grew the heap with the batch.
 */
class PageAssembler {
  private readonly pending = new Map<ResultView, PendingPage>();
  constructor(private readonly pageClaims: number) {}

  /** a claim's JSON into `all` and its status's view; the pages it filled */
  add(status: ResultView, items: number, json: Uint8Array, full: ResultPage[]): void {
    this.append("all", items, json, full);
    this.append(status, items, json, full);
  }

  /** the views' last pages, not full */
  finish(): ResultPage[] {
    const last: ResultPage[] = [];
    for (const view of this.pending.keys()) {
      const page = this.close(view);
      if (page !== undefined) last.push(page);
    }
    return last;
  }

  private append(view: ResultView, items: number, json: Uint8Array, full: ResultPage[]): void {
    let page = this.pending.get(view);
    if (page === undefined) {
      page = { bytes: new Uint8Array(1024 ** 2), length: 0, claims: 0, items: 0, page: 1 };
      this.pending.set(view, page);
    }
    // the JSON, its separator and the page's closing bracket
    const room = page.length + json.length + 2;
    if (room > page.bytes.length) {
      const grown = new Uint8Array(Math.max(room, 2 * page.bytes.length));
      grown.set(page.bytes.subarray(0, page.length));
      page.bytes = grown;
    }
    page.bytes[page.length++] = page.claims === 0 ? OPEN_BRACKET : COMMA;
    page.bytes.set(json, page.length);
    page.length += json.length;
    page.claims++;
    page.items += items;
    if (page.claims === this.pageClaims) full.push(this.close(view) as ResultPage);
  }

  private close(view: ResultView): ResultPage | undefined {
    const page = this.pending.get(view);
    if (page === undefined || page.claims === 0) return undefined;
    page.bytes[page.length++] = CLOSE_BRACKET;
    const done = {
      view,
      page: page.page,
      claims: page.claims,
      items: page.items,
      json: page.bytes.subarray(0, page.length),
    };
    Object.assign(page, { length: 0, claims: 0, items: 0, page: page.page + 1 });
    return done;
  }
}

export interface PageCallbacks {
  /**
   * a page to store; a promise only when the writing must wait for it. Its bytes are the buffer the view's
   * next page is written into: valid until the promise settles (a copy to keep them longer)
   */
  onPage(page: ResultPage): Promise<void> | undefined;
  /** after every `step` claims, with the claims written so far */
  onProgress(claims: number): Promise<void> | undefined;
}

/** every claim's result, in order, into pages of `pageClaims`; resolves to the claims written */
export async function writePages(
  source: ResultSource,
  pageClaims: number,
  step: number,
  { onPage, onProgress }: PageCallbacks,
): Promise<number> {
  const encoder = new ClaimResultEncoder(source);
  const pages = new PageAssembler(pageClaims);
  const full: ResultPage[] = [];
  for (let claim = 0; claim < source.claimCount; ) {
    const items = (source.firstItem[claim + 1] as number) - (source.firstItem[claim] as number);
    pages.add(statusOf(source.claimStatus[claim]), items, encoder.encode(claim), full);
    // a promise for each of a million claims cost more than copying them: awaited only when a page went
    if (full.length > 0) {
      for (const page of full) await onPage(page);
      full.length = 0;
    }
    claim++;
    if (claim % step === 0) await onProgress(claim);
  }
  for (const page of pages.finish()) await onPage(page);
  return source.claimCount;
}
