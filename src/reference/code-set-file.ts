export interface CodeSetEntry {
  code: string;
  description: string;
}

export interface ParsedCodeSet {
  entries: CodeSetEntry[];
  /** 1-based line numbers of the entries, for error messages */
  lines: number[];
}

/** splits one CSV line, honouring double quotes and doubled quotes inside them */
function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === "") quoted = true;
    else if (char === ",") {
      fields.push(field);
      field = "";
    } else field += char;
  }
  fields.push(field);
  return fields;
}

/**
 * Reads a code list as TSV or CSV (decided by the first line: a tab means TSV). A first line whose cells
 * name columns (one says "code") is a header: the `code` column and the first column whose name contains
 * "desc" are used. Without a header, the first two columns are code and description.
 */
export function parseCodeSetText(text: string): ParsedCodeSet {
  const rawLines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const firstLine = rawLines.find((line) => line.trim() !== "") ?? "";
  const split = firstLine.includes("\t") ? (line: string) => line.split("\t") : splitCsvLine;
  let codeColumn = 0;
  let descriptionColumn = 1;
  let start = 0;
  const header = split(firstLine).map((cell) => cell.trim().toLowerCase());
  if (header.some((cell) => cell === "code" || cell.endsWith("_code") || cell === "icd_code")) {
    codeColumn = header.findIndex((cell) => cell === "code" || cell.endsWith("_code"));
    const desc = header.findIndex((cell) => cell.includes("desc"));
    descriptionColumn = desc >= 0 ? desc : codeColumn + 1;
    start = rawLines.indexOf(firstLine) + 1;
  }
  const entries: CodeSetEntry[] = [];
  const lines: number[] = [];
  for (let index = start; index < rawLines.length; index++) {
    const line = rawLines[index] as string;
    if (line.trim() === "") continue;
    const cells = split(line);
    entries.push({
      code: (cells[codeColumn] ?? "").trim(),
      description: (cells[descriptionColumn] ?? "").trim(),
    });
    lines.push(index + 1);
  }
  return { entries, lines };
}
