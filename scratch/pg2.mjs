import { PGlite } from "@electric-sql/pglite";
import { randomBytes } from "node:crypto";
const mode = process.argv[2];
const db = new PGlite({ serializers: { 17: mode === "binary" ? (v) => v : (v) => `\\x${Buffer.from(v).toString("hex")}` } });
await db.exec("create table r (id int, data bytea not null)");
const buf = randomBytes(120_000);
for (const storage of ["EXTENDED", "EXTERNAL"]) {
  await db.exec(`truncate r; alter table r alter column data set storage ${storage}`);
  const t = performance.now();
  for (let i = 0; i < 300; i++) await db.query("insert into r values ($1, $2)", [i, buf]);
  console.log(mode, storage, ((performance.now() - t) / 300).toFixed(2), "ms per insert");
}
const r = await db.query("select sum(length(data))::int s from r");
console.log(r.rows);
const t2 = performance.now();
for (let i = 0; i < 300; i++) await db.query("select 1");
console.log("select 1", ((performance.now() - t2) / 300).toFixed(3));
