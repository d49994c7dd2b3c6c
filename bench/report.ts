/**
 * Which floor each figure stands beside, the ratio goals of the creates and the absolute budgets of
 * docs/architecture.md section 7.
 */
import type { BatchFigure } from "./batches.js";
import { CORES } from "./cpu.js";
import type { DatabaseFloor } from "./database-floor.js";
import type { FhirFigures } from "./fhir.js";
import type { Figure } from "./figures.js";
import type { FhirFloor, RouteFloor } from "./floors.js";
import type { HttpFigures } from "./http.js";
import type { CreateFigures, PriorAuthFigures } from "./prior-auth.js";
import { compare, type Measure, type RatioRow } from "./ratios.js";
import type { WebhookFigure } from "./webhooks.js";

/** the creates' goals: one client's create within 4x the one-insert transaction; with 20 clients, a fifth of that
 * transaction's rate and a p99 within 10x one client's p50 */
const CREATE_GOALS = {
  oneClientP50: { atMost: 4 },
  manyRate: { atLeast: 0.2 },
  manyP99: { atMost: 10 },
} as const;

/** the batch's goals: the upload at the parse's speed (the parse is its work), batch.completed within 2x */
const BATCH_GOALS = {
  upload: { atMost: 1 },
  completed: { atMost: 2 },
} as const;

const measure = (name: string, value: number, unit: string): Measure => ({ name, value, unit });
const rate = (name: string, figure: Figure) => measure(`${name}: req/s`, figure.requestsPerSecond, "req/s");
const p50 = (name: string, figure: Figure) => measure(`${name}: p50`, figure.p50Ms, "ms");
const p99 = (name: string, figure: Figure) => measure(`${name}: p99`, figure.p99Ms, "ms");

const DB_NAME = { pglite: "PGlite", postgres: "PostgreSQL" } as const;
const txP50 = (db: DatabaseFloor) =>
  measure(`${DB_NAME[db.database]} 1-insert tx: p50`, db.insertP50Ms, "ms");
const txRate = (db: DatabaseFloor, clients: number) =>
  measure(`${DB_NAME[db.database]} 1-insert tx, ${clients} callers`, db.insertsPerSecond, "tx/s");
const selectRate = (db: DatabaseFloor, clients: number) =>
  measure(`${DB_NAME[db.database]} 1-row SELECT, ${clients} callers`, db.selectsPerSecond, "rows/s");

const txCpu = (db: DatabaseFloor, clients: number) =>
  db.insertCpuMs === undefined
    ? undefined
    : measure(`${DB_NAME[db.database]} 1-insert tx, ${clients} callers: CPU per tx`, db.insertCpuMs, "ms");

/**
 * What a create's CPU allows, where it was measured: its CPU (server and database) against the floor
 * transaction's; the most creates a second the machine's cores could give at that CPU, against the floor's
 * rate (under a fifth, the rate's goal needs less CPU per create, not better scheduling); and the mean
 * latency of `clients` clients waiting for each answer (clients / rate, Little's law) against one client's
 * p50 (over 10x, no p99 can be within 10x of it at this rate).
 */
function createCpuRows(
  many: string,
  figures: CreateFigures,
  db: DatabaseFloor,
  clients: number,
  one: string,
): RatioRow[] {
  const rows: RatioRow[] = [];
  const floorCpu = txCpu(db, clients);
  for (const [name, figure] of [
    [one, figures.one],
    [many, figures.many],
  ] as const) {
    if (figure.cpuMsPerRequest === undefined || floorCpu === undefined) continue;
    rows.push(
      compare(measure(`${name}: CPU per create (server + database)`, figure.cpuMsPerRequest, "ms"), floorCpu),
    );
  }
  const cpu = figures.many.cpuMsPerRequest;
  if (cpu !== undefined && floorCpu !== undefined) {
    const bound = measure(
      `${many}: the most req/s ${CORES} cores give at that CPU`,
      (CORES * 1000) / cpu,
      "req/s",
    );
    rows.push(compare(bound, txRate(db, clients)));
  }
  const meanMs = (clients * 1000) / figures.many.requestsPerSecond;
  rows.push(compare(measure(`${many}: mean latency (clients / req/s)`, meanMs, "ms"), p50(one, figures.one)));
  return rows;
}

/** a figure's rate and p99 with `clients` clients against the bare route's with as many */
function againstRoute(
  name: string,
  figure: Figure,
  floor: Figure,
  clients: number,
  budgets: { rate?: string; p99?: string } = {},
): RatioRow[] {
  const bare = `bare route, ${clients} clients`;
  return [
    compare(rate(name, figure), rate(bare, floor), { budget: budgets.rate }),
    compare(p99(name, figure), p99(bare, floor), { budget: budgets.p99 }),
  ];
}

export function httpRows(
  figures: HttpFigures,
  floors: { findAll: RouteFloor; memberCreate: RouteFloor; db: DatabaseFloor },
  clients: number,
): RatioRow[] {
  const reads = figures.reads.flatMap((read) => [
    ...againstRoute(read.scenario, read, floors.findAll.many, clients, { rate: ">= 2,000 req/s" }),
    compare(rate(read.scenario, read), selectRate(floors.db, clients)),
  ]);
  const create = figures.memberCreate;
  return [
    ...reads,
    ...againstRoute(create.scenario, create, floors.memberCreate.many, clients),
    compare(rate(create.scenario, create), txRate(floors.db, clients)),
  ];
}

function createRows(
  name: string,
  figures: CreateFigures,
  floors: { route: RouteFloor; db: DatabaseFloor },
  clients: number,
  budgets: { rate: string; p99: string },
): RatioRow[] {
  const many = `${name}, ${clients} clients`;
  const one = `${name}, one client`;
  const bareOne = floors.route.one === undefined ? [] : [floors.route.one];
  return [
    ...againstRoute(many, figures.many, floors.route.many, clients, budgets),
    ...bareOne.map((floor) =>
      compare(p50(one, figures.one), p50("bare route, one client", floor), { budget: "p50 <= 3 ms" }),
    ),
    compare(p50(one, figures.one), txP50(floors.db), { goal: CREATE_GOALS.oneClientP50 }),
    compare(rate(many, figures.many), txRate(floors.db, clients), { goal: CREATE_GOALS.manyRate }),
    compare(p99(many, figures.many), p50(one, figures.one), { goal: CREATE_GOALS.manyP99 }),
    ...createCpuRows(many, figures, floors.db, clients, one),
  ];
}

export function priorAuthRows(
  figures: PriorAuthFigures,
  floors: { route: RouteFloor; db: DatabaseFloor },
  clients: number,
): RatioRow[] {
  return [
    ...createRows("lightweight create", figures.lightweight, floors, clients, {
      rate: ">= 300 req/s",
      p99: "p99 <= 50 ms",
    }),
    ...createRows("standard create", figures.standard, floors, clients, {
      rate: ">= 200 req/s",
      p99: "p99 <= 80 ms",
    }),
  ];
}

export function fhirRows(figures: FhirFigures, floors: { fhir: FhirFloor; db: DatabaseFloor }): RatioRow[] {
  const fhir = measure("FHIR priorauth-request, one client: p50", figures.fhirP50Ms, "ms");
  const json = measure("JSON create (same 5 items), one client: p50", figures.jsonP50Ms, "ms");
  return [
    compare(fhir, json),
    compare(fhir, measure("bare route, FHIR message: p50", floors.fhir.fhirP50Ms, "ms")),
    compare(json, measure("bare route, JSON create: p50", floors.fhir.jsonP50Ms, "ms")),
    compare(fhir, txP50(floors.db)),
    compare(
      measure("FHIR over JSON create: added p50", figures.addedP50Ms, "ms"),
      measure("bare routes: added p50", floors.fhir.addedP50Ms, "ms"),
      { budget: "added <= 1 ms" },
    ),
  ];
}

export function webhookRows(
  figures: readonly WebhookFigure[],
  floors: { asks: number; db: DatabaseFloor },
  clients: number,
): RatioRow[] {
  return figures.flatMap((webhook) => {
    const name = webhook.scenario.split(":")[0] as string;
    const asked =
      webhook.askedPerSecond === null
        ? []
        : [
            compare(
              measure(`webhook test events asked for, ${clients} clients`, webhook.askedPerSecond, "req/s"),
              measure(`bare route, ${clients} clients`, floors.asks, "req/s"),
            ),
          ];
    return [
      ...asked,
      compare(
        measure(`webhook deliveries (${name})`, webhook.deliveriesPerSecond, "deliveries/s"),
        txRate(floors.db, clients),
      ),
    ];
  });
}

/**
 * The batch's CPU (server and database) against the floor's (one thread: its time is its CPU), and the time
 * batch.completed would take at best were every core busy from the upload on (CPU / cores): over the goal,
 * the batch needs less work, not better scheduling.
 */
function batchCpuRows(figure: BatchFigure, floor: Measure): RatioRow[] {
  const { uploadCpuSeconds: upload, toCompletedCpuSeconds: total } = figure;
  if (upload === undefined || total === undefined) return [];
  return [
    compare(measure("batch upload to the 202: CPU (server + database)", upload, "s"), floor),
    compare(measure("batch upload to batch.completed: CPU (server + database)", total, "s"), floor),
    compare(measure(`batch.completed at best on ${CORES} cores: CPU / cores`, total / CORES, "s"), floor),
  ];
}

export function batchRows(figure: BatchFigure): RatioRow[] {
  const floor = measure("gunzip + JSON.parse of each claim", figure.floorSeconds, "s");
  const items = figure.items.toLocaleString("en-US");
  return [
    compare(measure(`batch upload (${items} items) to the 202`, figure.uploadSeconds, "s"), floor, {
      goal: BATCH_GOALS.upload,
      budget: ">= 50 MB/s of JSON",
    }),
    compare(measure("batch upload to batch.completed", figure.toCompletedSeconds, "s"), floor, {
      goal: BATCH_GOALS.completed,
      budget: "1,000,000 items <= 60 s",
    }),
    ...batchCpuRows(figure, floor),
    compare(
      measure("batch server RSS before the upload", figure.serverIdleRssMb ?? Number.NaN, "MB"),
      undefined,
    ),
    compare(measure("batch server peak RSS", figure.serverPeakRssMb ?? Number.NaN, "MB"), undefined, {
      // memory should not follow the batch's size: 10,000,000 items in less than 1,000,000 may take today
      budget: figure.items >= 10_000_000 ? "<= 1.5 GB at 10,000,000 items" : "<= 2 GB",
    }),
  ];
}
