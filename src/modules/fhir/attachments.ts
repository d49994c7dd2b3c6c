/**
 * Attachments as NPHIES carries them: base64Binary inside the message (bounded by its 10 MB limit, so one
 * decoded attachment is at most about 7.5 MB in memory), stored decoded in fhir_attachments and named by
 * a communication's `path`.
 */

/** padded base64 (RFC 4648 section 4), the alphabet FHIR base64Binary uses; `=` only at the end */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const WHITESPACE = /\s/;

/**
 * The bytes of a base64Binary value, or undefined when it is not one (Buffer.from would skip what is not
 * base64 silently, storing other bytes than were sent). Whitespace between characters is allowed, as
 * FHIR's base64Binary regex allows it.
 */
export function decodeBase64(text: string): Buffer | undefined {
  const compact = WHITESPACE.test(text) ? text.replace(/\s+/g, "") : text;
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) return undefined;
  return Buffer.from(compact, "base64");
}

/** how a communication names a stored attachment (its `path`) */
export const attachmentPath = (id: number) => `fhir-attachment:${id}`;
