import type { RequestContext } from "../../platform/context.js";
import type { Message } from "./bundle.js";

// placeholder: batch-request is being written
export async function answerBatch(
  _ctx: RequestContext,
  _message: Message,
  _hash: string,
  _process: (ctx: RequestContext, body: unknown, hash: string) => Promise<string>,
): Promise<string> {
  throw new Error("batch-request is not answered yet");
}
