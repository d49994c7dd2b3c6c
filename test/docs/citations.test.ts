/**
 * Every citation in the repository points at something that exists. Code, tests and documents cite the
 * documents by numbered section (`docs/operator-contract.md section 7`), the README by heading
 * (README "Reviewer console", the README's *Architecture* section) and files by path (`src/engine/money.ts`
 * in a document or a comment); files move and headings change, and a citation that no longer resolves
 * sends its reader nowhere. This test reads them all and checks each one:
 *
 * - a cited document exists in the repository (not outside it: the repository cites only itself);
 * - a cited section number is a numbered heading of that document (`## 7. Performance budgets`);
 * - a section number without a document is allowed only inside a numbered document (its own section)
 *   or after a standard's name (RFC 6749 section 5.2); elsewhere it must say which document;
 * - a cited heading is a heading of the README cited (a document's own "section *X*" one of its own);
 * - a path in a document, a markdown link, or a path in a comment names a file or folder that exists.
 *
 * Headings of each document are unique, so a heading names one place.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

/** what is read: sources, tests, benchmarks, scripts, the synthetic data, documents, the lint settings */
const TREES: [dir: string, extensions: RegExp][] = [
  ["src", /\.(ts|md)$/],
  ["test", /\.(ts|md)$/],
  ["bench", /\.(ts|mjs|md)$/],
  ["scripts", /\.(ts|mjs|md)$/],
  ["synthetic", /\.(ts|md)$/],
  ["docs", /\.md$/],
  ["clients/typescript", /^(README\.md|.*\.ts)$/],
];
const FILES = ["README.md", "biome.json"];
const SKIPPED_DIRS = new Set(["node_modules", "dist", ".build", "data"]);
/** generated from the OpenAPI document: its citations are the route descriptions', read in src */
const SKIPPED_FILES = new Set(["clients/typescript/src/schema.ts"]);

function walk(dir: string, extensions: RegExp): string[] {
  const absolute = join(ROOT, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : walk(path, extensions);
    return extensions.test(entry.name) && !SKIPPED_FILES.has(path) && path !== SELF ? [path] : [];
  });
}

const scanned = (): string[] =>
  [...TREES.flatMap(([dir, extensions]) => walk(dir, extensions)), ...FILES].sort();

const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");

interface Headings {
  /** every heading's text, with and without its number (`7. Performance budgets`, `Performance budgets`) */
  titles: Set<string>;
  /** the numbers of `## N.` headings */
  numbers: Set<number>;
  /** headings that appear more than once */
  repeated: string[];
}

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** a markdown text's headings, outside fenced code */
export function headingsOf(markdown: string): Headings {
  const titles = new Set<string>();
  const numbers = new Set<number>();
  const seen = new Set<string>();
  const repeated: string[] = [];
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const title = collapse(heading[2] as string);
    if (seen.has(title)) repeated.push(title);
    seen.add(title);
    titles.add(title);
    const numbered = /^(\d+)\.\s+(.*)$/.exec(title);
    if (numbered !== null) {
      titles.add(numbered[2] as string);
      if (heading[1] === "##") numbers.add(Number(numbered[1]));
    }
  }
  return { titles, numbers, repeated };
}

const headingCache = new Map<string, Headings>();
function headingsOfFile(path: string): Headings {
  const known = headingCache.get(path);
  if (known !== undefined) return known;
  const found = headingsOf(read(path));
  headingCache.set(path, found);
  return found;
}

/**
 * The text with its line breaks, and the comment markers that begin continued comment lines, read as one
 * space: a citation wrapped over two lines of a comment or a paragraph is read whole. `origin[i]` is where
 * character i of the flattened text was in the original.
 */
export function flatten(text: string): { text: string; origin: number[] } {
  const out: string[] = [];
  const origin: number[] = [];
  let last = 0;
  for (const brk of text.matchAll(/[ \t]*\r?\n[ \t]*(?:(?:\/\/+|\*(?![*/])|>)[ \t]?)?/g)) {
    for (let i = last; i < brk.index; i += 1) {
      out.push(text[i] as string);
      origin.push(i);
    }
    out.push(" ");
    origin.push(brk.index);
    last = brk.index + brk[0].length;
  }
  for (let i = last; i < text.length; i += 1) {
    out.push(text[i] as string);
    origin.push(i);
  }
  return { text: out.join(""), origin };
}

export type Citation =
  /** sections of a document, by number; `doc` as written (undefined: the citing document's own) */
  | { kind: "section"; at: number; text: string; doc: string | undefined; sections: number[] }
  /** a heading of a README (`doc` its path as written), or of the citing document itself */
  | { kind: "heading"; at: number; text: string; doc: string | undefined; heading: string }
  /** a file or folder; `base` is what it is relative to: the repository or the citing file's folder */
  | { kind: "path"; at: number; text: string; path: string; base: "root" | "file" | "src" }
  /** a section number that does not say of which document */
  | { kind: "bare"; at: number; text: string };

const NUMBER = String.raw`\d+(?!\.\d)`;
const NUMBERS = String.raw`${NUMBER}(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s*(?:-|–|to)\s*)${NUMBER})*`;
const numbersOf = (text: string) => [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));

/** `docs/operator-contract.md section 7`, `` `architecture.md` sections 5 and 7 ``, `CONTRACT §7` */
const DOC_SECTION = new RegExp(
  String.raw`(?<![\w./-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w-]+\.md|CONTRACT|DESIGN)[\`'"]?,?\s+\(?(?:sections?\s+|§\s*)(${NUMBERS})`,
  "g",
);
const BARE_SECTION = new RegExp(String.raw`(?<![\w-])(?:[Ss]ections?\s+|§\s*)(${NUMBERS})(?![\w-])`, "g");
/** README "Heading", README's "Heading" section, README (section *Heading*), README, "Heading" */
const README_HEADING =
  /(?<![\w./-])((?:[\w.-]+\/)*README)(?:\.md)?(?:'s)?,?\s*\(?(?:section\s+)?(?:["“]([^"”]{1,80})["”]|\*([^*\s][^*]{0,79})\*)/g;
/** inside a document: section "Heading", section *Heading* (its own headings) */
const OWN_HEADING = /\bsection\s+(?:["“]([^"”]{1,80})["”]|\*([^*\s][^*]{0,79})\*)/g;
/** a path from the repository's root */
const ROOT_PATH = /(?<![\w./~-])((?:src|docs|test|bench|scripts|synthetic|clients)\/[\w.@/-]*)/g;
/** a path the README writes from src/ (`platform/db/pglite-host.ts`) */
const SRC_PATH =
  /(?<![\w./~-])((?:engine|modules|platform|reference|demo|surfaces)\/[\w.@/-]*\.(?:ts|sql|md))/g;
const LINK = /\]\(([^)\s]+)\)/g;

/** a path written with a placeholder (`src/modules/<area>/`, `test-cases-*.test.ts`) names no one file */
const placeholderAfter = (text: string, end: number) => /^[<*{[…]/.test(text.slice(end, end + 1));

/** the citations of a file, each with its offset in the file */
export function citationsIn(path: string, raw: string): Citation[] {
  const markdown = path.endsWith(".md");
  const { text, origin } = flatten(raw);
  const found: Citation[] = [];
  const taken: [number, number][] = [];
  const at = (flatIndex: number) => origin[flatIndex] ?? 0;

  for (const m of text.matchAll(DOC_SECTION)) {
    const doc = m[1] as string;
    found.push({ kind: "section", at: at(m.index), text: m[0], doc, sections: numbersOf(m[2] as string) });
    taken.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(BARE_SECTION)) {
    if (taken.some(([start, end]) => m.index >= start && m.index < end)) continue;
    // a standard's own sections (RFC 6749 section 5.2) are not this repository's
    if (/\bRFC\s*\d+\s*,?\s*$/.test(text.slice(Math.max(0, m.index - 20), m.index))) continue;
    if (markdown)
      found.push({
        kind: "section",
        at: at(m.index),
        text: m[0],
        doc: undefined,
        sections: numbersOf(m[1] as string),
      });
    else found.push({ kind: "bare", at: at(m.index), text: m[0] });
  }
  for (const m of text.matchAll(README_HEADING)) {
    const heading = collapse((m[2] ?? m[3]) as string);
    found.push({ kind: "heading", at: at(m.index), text: m[0], doc: m[1] as string, heading });
    taken.push([m.index, m.index + m[0].length]);
  }
  if (markdown)
    for (const m of text.matchAll(OWN_HEADING)) {
      if (taken.some(([start, end]) => m.index >= start && m.index < end)) continue;
      const heading = collapse((m[1] ?? m[2]) as string);
      found.push({ kind: "heading", at: at(m.index), text: m[0], doc: undefined, heading });
    }

  // paths: anywhere in a document, in the comments of code
  let offset = 0;
  for (const line of raw.split("\n")) {
    const start = markdown ? 0 : commentStart(line);
    if (start !== -1) {
      const part = line.slice(start);
      for (const [pattern, base] of [
        [ROOT_PATH, "root"],
        [SRC_PATH, "src"],
      ] as const)
        for (const m of part.matchAll(pattern)) {
          const written = (m[1] as string).replace(/[.-]+$/, "");
          if (written.includes("NNNN") || placeholderAfter(part, m.index + (m[1] as string).length)) continue;
          found.push({ kind: "path", at: offset + start + m.index, text: written, path: written, base });
        }
      if (markdown)
        for (const m of part.matchAll(LINK)) {
          const target = (m[1] as string).split("#")[0] as string;
          if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
          found.push({ kind: "path", at: offset + m.index, text: m[0], path: target, base: "file" });
        }
    }
    offset += line.length + 1;
  }
  return found;
}

/** where the comment of a line of code begins (the whole line for a block comment's), or -1 */
function commentStart(line: string): number {
  if (/^\s*(\/\/|\/\*|\*)/.test(line)) return 0;
  const inline = /(?<![:"'`\\])\/\/\s/.exec(line);
  return inline === null ? -1 : inline.index;
}

/** the document a citation names, from the citing file: a path, or a name in docs/ or at the root */
function documentOf(citing: string, doc: string | undefined): string | undefined {
  if (doc === undefined) return citing;
  if (doc === "CONTRACT" || doc === "DESIGN") return undefined;
  if (doc.endsWith("README")) return documentOf(citing, `${doc}.md`);
  const candidates = doc.includes("/")
    ? [normalize(doc), normalize(join(dirname(citing), doc))]
    : [join("docs", doc), doc, join(dirname(citing), doc)];
  return candidates.find((candidate) => !candidate.startsWith("..") && existsSync(join(ROOT, candidate)));
}

/** what is wrong with a citation, or undefined when it resolves */
export function problemOf(citing: string, citation: Citation): string | undefined {
  switch (citation.kind) {
    case "bare":
      return "a section number without its document: name the document (docs/….md section N)";
    case "section": {
      const doc = documentOf(citing, citation.doc);
      if (doc === undefined) return `${citation.doc} is not a document of this repository`;
      const { numbers } = headingsOfFile(doc);
      if (numbers.size === 0) return `${doc} has no numbered sections`;
      const missing = citation.sections.filter((n) => !numbers.has(n));
      return missing.length === 0
        ? undefined
        : `${doc} has no section ${missing.join(", ")} (its sections: 1-${Math.max(...numbers)})`;
    }
    case "heading": {
      const doc = documentOf(citing, citation.doc);
      if (doc === undefined) return `${citation.doc} is not a document of this repository`;
      return headingsOfFile(doc).titles.has(citation.heading)
        ? undefined
        : `${doc} has no heading "${citation.heading}"`;
    }
    case "path": {
      const base = citation.base === "file" ? dirname(citing) : citation.base === "src" ? "src" : "";
      const target = normalize(join(base, citation.path));
      if (target.startsWith("..")) return "a path outside the repository";
      // a package's README writes its paths from its own folder (clients/typescript: `src/schema.ts`)
      const local = normalize(join(dirname(citing), citation.path));
      const exists = (path: string) => !path.startsWith("..") && existsSync(join(ROOT, path));
      return exists(target) || (citing.endsWith(".md") && exists(local))
        ? undefined
        : `${target} does not exist`;
    }
  }
}

const lineOf = (raw: string, offset: number) => raw.slice(0, offset).split("\n").length;

describe("citations", () => {
  it("reads every form of citation, wrapped over lines and comment markers", () => {
    const code = [
      "/**",
      " * as docs/operator-contract.md",
      ' * section 7 says; `architecture.md` sections 5 and 7; CONTRACT §7; README "Reviewer console";',
      " * the README's *Architecture* section; README (section *FWA",
      " * detection*); RFC 6749 section 5.2; the guide (section 6.3.2); (section 14) src/engine/money.ts",
      " */",
      'const x = "src/not-a-comment.ts"; // see docs/fwa.md',
    ].join("\n");
    const seen = citationsIn("src/x.ts", code).map((c) => {
      if (c.kind === "section") return `section ${c.doc} ${c.sections.join(",")}`;
      if (c.kind === "heading") return `heading ${c.doc} ${c.heading}`;
      if (c.kind === "path") return `path ${c.path}`;
      return `bare ${c.text}`;
    });
    assert.deepEqual(seen.sort(), [
      "bare section 14",
      "heading README Architecture",
      "heading README FWA detection",
      "heading README Reviewer console",
      "path docs/fwa.md",
      "path docs/operator-contract.md",
      "path src/engine/money.ts",
      "section CONTRACT 7",
      "section architecture.md 5,7",
      "section docs/operator-contract.md 7",
    ]);
    const doc =
      'Budgets: section 7; the README\'s *Run it*; section "Run it"; `src/modules/<area>/`; [x](../README.md)';
    const inDoc = citationsIn("docs/x.md", doc).map((c) => `${c.kind} ${"path" in c ? c.path : c.text}`);
    assert.deepEqual(inDoc.sort(), [
      "heading README's *Run it*",
      'heading section "Run it"',
      "path ../README.md",
      "section section 7",
    ]);
  });

  it("resolves or refuses what it reads", () => {
    const problems = (file: string, text: string) =>
      citationsIn(file, text).flatMap((c) => problemOf(file, c) ?? []);
    assert.deepEqual(problems("src/x.ts", '// docs/architecture.md section 7, README "Run it"'), []);
    assert.deepEqual(problems("src/x.ts", "// docs/architecture.md section 70"), [
      "docs/architecture.md has no section 70 (its sections: 1-7)",
    ]);
    assert.deepEqual(problems("src/x.ts", "// CONTRACT section 11"), [
      "CONTRACT is not a document of this repository",
    ]);
    assert.deepEqual(problems("src/x.ts", '// README "No such heading"'), [
      'README.md has no heading "No such heading"',
    ]);
    assert.deepEqual(problems("docs/x.md", "see `src/engine/nowhere.ts`"), [
      "src/engine/nowhere.ts does not exist",
    ]);
  });

  it("every citation in the repository resolves", () => {
    const problems: string[] = [];
    for (const file of scanned()) {
      const raw = read(file);
      for (const citation of citationsIn(file, raw)) {
        const problem = problemOf(file, citation);
        if (problem !== undefined)
          problems.push(`${file}:${lineOf(raw, citation.at)}: ${collapse(citation.text)}: ${problem}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it("each document's headings are unique, so that a heading names one place", () => {
    const repeated = scanned()
      .filter((file) => file.endsWith(".md"))
      .flatMap((file) => headingsOfFile(file).repeated.map((heading) => `${file}: "${heading}"`));
    assert.deepEqual(repeated, []);
  });
});
