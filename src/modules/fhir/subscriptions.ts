import { reactTo } from "../../platform/events/reactions.js";
import { PRIOR_AUTH_DECIDED } from "../prior-auth/events.js";
import { registerCommunicationRequests } from "./communication-request.js";
import { sendFinalResponse } from "./final-response.js";

/** what the FHIR area does when other areas change things: called once when the application is assembled */
export function subscribeFhirArea(): void {
  reactTo(PRIOR_AUTH_DECIDED, "fhir.final-response", sendFinalResponse);
  registerCommunicationRequests();
}
