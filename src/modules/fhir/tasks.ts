import type { Bundle } from "@medplum/fhirtypes";
import type { RequestContext } from "../../platform/context.js";
import type { Message } from "./bundle.js";

// placeholder: cancel-request, status-check and the acknowledgement are being written
export async function answerCancel(_ctx: RequestContext, _message: Message, _hash: string): Promise<string> {
  throw new Error("cancel-request is not answered yet");
}
export async function answerStatusCheck(
  _ctx: RequestContext,
  _message: Message,
  _hash: string,
): Promise<string> {
  throw new Error("status-check is not answered yet");
}
export function acknowledgementOf(_ctx: RequestContext, _message: Message): Bundle {
  throw new Error("the acknowledgement is not written yet");
}
