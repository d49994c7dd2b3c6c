import { PGlite } from "@electric-sql/pglite";
import { randomBytes } from "node:crypto";
const db = new PGlite({ serializers: { 17: (v) => `\\x${Buffer.from(v).toString("hex")}` } });
await db.exec("create table r (id int, data bytea not null)");
const buf = randomBytes(120_000);
const hex = `\\x${buf.toString("hex")}`;
for (const storage of ["EXTENDED", "EXTERNAL", "EXTENDED"]) {
  await db.exec(`truncate r; alter table r alter column data set storage ${storage}`);
  const t = performance.now();
  for (let i = 0; i < 500; i++) await db.query("insert into r values ($1, $2)", [i, buf]);
  console.log(storage, ((performance.now() - t) / 500).toFixed(2), "ms per insert");
}
const t = performance.now();
for (let i = 0; i < 500; i++) buf.toString("hex");
console.log("hex encode", ((performance.now() - t) / 500).toFixed(2));
