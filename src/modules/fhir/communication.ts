import type { RequestContext } from "../../platform/context.js";
import type { Message } from "./bundle.js";

// placeholder: communications are being written
export async function answerCommunication(
  _ctx: RequestContext,
  _message: Message,
  _hash: string,
): Promise<string> {
  throw new Error("communication is not answered yet");
}
