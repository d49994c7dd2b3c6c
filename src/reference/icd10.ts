/**
 * ICD-10 code structure: a letter, a digit, a digit or letter (C4A, D3A), then optionally a dot and up to
 * four more characters. Codes are kept without the dot, upper case: the form code lists use.
 */
const ICD10 = /^[A-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?$/;

export function normalizeIcd10(code: string): string {
  return code.trim().toUpperCase().replace(".", "");
}

export function isWellFormedIcd10(code: string): boolean {
  return ICD10.test(code.trim().toUpperCase());
}

/**
 * What a code list may hold: 3 to 8 letters and digits once the dot is gone. Looser than the structure on
 * purpose: real lists carry codes such as NOINJ or QA0011 that an insurer uses and expects to be found.
 */
export function isCodeToken(code: string): boolean {
  return /^[A-Z0-9]{3,8}$/.test(normalizeIcd10(code));
}
