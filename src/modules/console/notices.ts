/**
 * What a request's page may say after a write (`?done=<key>`): only these texts, by key, so a link cannot
 * make the console show words of its sender's choosing as its own.
 */
export const NOTICES = {
  "decided-ACCEPTED": "Decision recorded: ACCEPTED",
  "decided-PARTIALLY_ACCEPTED": "Decision recorded: PARTIALLY_ACCEPTED",
  "decided-REJECTED": "Decision recorded: REJECTED",
  "decided-REFERRED": "Decision recorded: REFERRED",
  referred: "Referred",
  communicated: "Communication added; the engine decided again",
  "information-requested": "Information requested from the provider",
  reopened: "Reopened; the engine decided again",
  cancelled: "Cancelled",
} as const;

export type NoticeKey = keyof typeof NOTICES;

/** the text of a known key; undefined for anything else */
export function noticeOf(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  for (const [known, text] of Object.entries(NOTICES)) if (known === key) return text;
  return undefined;
}
