/**
 * The HTTP scenarios: network find-all over a large tenant (1,000 networks, a fifth VIP) and a typical one
 * (50), and member create, each with BENCH_CONNECTIONS clients. The drivers also drive the floor server.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { cannon, cannonPosts, type Figure, figure } from "./figures.js";
import { ADMIN_TOKEN, createTenant } from "./server.js";

export interface HttpFigures {
  reads: Figure[];
  memberCreate: Figure;
}

export const FIRST_PAGE = "limit=10&skip=0";

export function driveFindAll(
  base: string,
  headers: Record<string, string>,
  query: string,
  seconds: number,
  connections: number,
) {
  return cannon({ url: `${base}/network/find-all?${query}`, connections, duration: seconds, headers });
}

/** one sequence across every run, so that no member_id repeats */
let sequence = 0;

export function driveMemberCreate(
  base: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
) {
  return cannonPosts(base, "/member/create", headers, seconds, connections, () =>
    JSON.stringify({
      member_id: `BENCH-${process.pid}-${sequence++}`,
      national_id: "1012345678",
      gender: sequence % 2 ? "MALE" : "FEMALE",
      marital_status: "MARRIED",
      date_of_birth: "1985-06-15T00:00:00.000Z",
      name: "Bench Member",
      email: "member@example.sa",
    }),
  );
}

async function seedNetworks(url: string, headers: Record<string, string>, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await fetch(`${url}/network/create`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: `Network ${String(i).padStart(4, "0")}`, is_vip: i % 5 === 0 }),
    });
  }
}

export async function benchHttp(
  port: number,
  base: string,
  headers: Record<string, string>,
  options: { seconds: number; connections: number },
): Promise<HttpFigures> {
  const { base: smallBase, headers: smallHeaders } = await createTenant(port, ADMIN_TOKEN, "bench-small");
  await seedNetworks(base, headers, 1000);
  await seedNetworks(smallBase, smallHeaders, 50);
  // the embedded database's maintenance analyzes new data within seconds, as it would in service
  await sleep(7000);

  const reads: Figure[] = [];
  for (const [label, url, hdrs, query] of [
    ["GET network/find-all (first page of 1,000)", base, headers, FIRST_PAGE],
    ["GET network/find-all (name filter over 1,000)", base, headers, "name=network%2001&limit=10&skip=0"],
    [
      "GET network/find-all (name filter over 50)",
      smallBase,
      smallHeaders,
      "name=network%2001&limit=10&skip=0",
    ],
  ] as const) {
    const findAll = await driveFindAll(url, hdrs, query, options.seconds, options.connections);
    reads.push(figure(label, findAll, ">= 2,000 req/s", "200"));
  }
  const create = await driveMemberCreate(base, headers, options.seconds, options.connections);
  return {
    reads,
    memberCreate: figure("POST member/create (unique members)", create, "none set yet", "201"),
  };
}
