import { types } from "@electric-sql/pglite";
import { OID } from "./db.js";

/**
 * The embedded database's answers read on the application's thread: the database's thread sends the
 * wire protocol's bytes of a simple-protocol message as they are, and the rows are built here. Reading
 * them with PGlite's own parser on its thread took most of a statement's time there (a one-row read:
 * 80 µs through `exec`, 25 µs as bytes), and that thread is the one every request waits for.
 */

type Parser = (text: string, typeId?: number) => unknown;

/** how our columns are read, the same on PGlite's own paths (pglite-host.ts) and on these bytes */
export const COLUMN_PARSERS: Record<number, Parser> = {
  [OID.int8]: (value: string) => Number(value),
  [OID.numeric]: (value: string) => value,
  [OID.date]: (value: string) => value,
  // PGlite's own bytea text codec goes byte by byte in JavaScript (6 MB/s): Node's hex codec is native
  [OID.bytea]: (value: string) => Buffer.from(value.slice(2), "hex"),
};

/** an array type and the type of its elements, as PGlite lists them when it starts */
export interface ArrayType {
  oid: number;
  typarray: number;
}

/** the array types PGlite reads its arrays by (its `_initArrayTypes`) */
export const ARRAY_TYPES_SQL = `
  SELECT b.oid, b.typarray
  FROM pg_catalog.pg_type a
  LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
  WHERE a.typcategory = 'A'
  GROUP BY b.oid, b.typarray
  ORDER BY b.oid`;

/** PGlite's parsers, ours over them, and its arrays of each: every column reads as PGlite's `exec` reads it */
export function columnParsers(arrayTypes: readonly ArrayType[]): Record<number, Parser> {
  const parsers: Record<number, Parser> = { ...types.parsers, ...COLUMN_PARSERS };
  for (const { oid, typarray } of arrayTypes)
    parsers[typarray] = (text) => types.arrayParser(text, parsers[oid] as Parser, typarray);
  return parsers;
}

const ROW_DESCRIPTION = 0x54; // T
const DATA_ROW = 0x44; // D
const COMMAND_COMPLETE = 0x43; // C

/**
 * The rows of each statement of one simple-protocol answer, in order: a result ends with its
 * CommandComplete, as PGlite's `parseResults` counts them. Errors and notifications were handled by the
 * database's thread before the bytes were sent; other messages carry nothing a caller reads.
 */
export function rowsOfAnswer(
  bytes: Uint8Array,
  parsers: Record<number, Parser>,
): Record<string, unknown>[][] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const results: Record<string, unknown>[][] = [];
  let names: string[] = [];
  let typeIds: number[] = [];
  let rows: Record<string, unknown>[] = [];
  for (let at = 0; at + 5 <= buffer.length; ) {
    const type = buffer[at] as number;
    const end = at + 1 + buffer.readUInt32BE(at + 1);
    let p = at + 5;
    if (type === ROW_DESCRIPTION) {
      const count = buffer.readInt16BE(p);
      p += 2;
      names = [];
      typeIds = [];
      for (let f = 0; f < count; f++) {
        const nameEnd = buffer.indexOf(0, p);
        names.push(buffer.toString("utf8", p, nameEnd));
        // after the name: table OID (4), column number (2), then the type OID
        typeIds.push(buffer.readInt32BE(nameEnd + 7));
        p = nameEnd + 19;
      }
    } else if (type === DATA_ROW) {
      const count = buffer.readInt16BE(p);
      p += 2;
      const row: Record<string, unknown> = {};
      for (let f = 0; f < count; f++) {
        const length = buffer.readInt32BE(p);
        p += 4;
        let value: unknown = null;
        if (length >= 0) {
          const text = buffer.toString("utf8", p, p + length);
          const typeId = typeIds[f] as number;
          const parse = parsers[typeId];
          value = parse === undefined ? text : parse(text, typeId);
          p += length;
        }
        row[names[f] as string] = value;
      }
      rows.push(row);
    } else if (type === COMMAND_COMPLETE) {
      results.push(rows);
      rows = [];
    }
    at = end;
  }
  return results;
}
