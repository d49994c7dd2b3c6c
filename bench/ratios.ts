/**
 * Figures beside the machine's floors. An absolute figure moves two- to three-fold between machines and
 * days; its ratio to a floor measured in the same run (a bare route, one database transaction, a gunzip
 * and parse) moves far less, so a ratio can say whether a change helped. Pure: no I/O.
 */

/** a measured quantity: what it is, its value and its unit */
export interface Measure {
  name: string;
  value: number;
  unit: string;
}

/** a goal on the ratio (the creates' are of this kind): at most or at least so many times the floor */
export interface RatioGoal {
  atMost?: number;
  atLeast?: number;
}

export interface RatioRow {
  figure: Measure;
  floor: Measure | undefined;
  /** figure / floor; undefined without a floor or when the floor is not positive */
  ratio: number | undefined;
  goal: RatioGoal | undefined;
  /** whether the ratio meets its goal; undefined without a goal or a ratio */
  met: boolean | undefined;
  /** the absolute budget of docs/architecture.md section 7, where one applies */
  budget: string | undefined;
}

/** the p-th percentile of values sorted ascending (the nearest rank at or above); NaN when empty */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export function ratioOf(value: number, floor: number | undefined): number | undefined {
  if (floor === undefined || !(floor > 0) || !Number.isFinite(value) || !Number.isFinite(floor))
    return undefined;
  return value / floor;
}

export function meets(ratio: number | undefined, goal: RatioGoal | undefined): boolean | undefined {
  if (ratio === undefined || goal === undefined) return undefined;
  return (
    (goal.atMost === undefined || ratio <= goal.atMost) &&
    (goal.atLeast === undefined || ratio >= goal.atLeast)
  );
}

/** a figure against its floor (or none), with the ratio's goal and the absolute budget where they apply */
export function compare(
  figure: Measure,
  floor: Measure | undefined,
  options: { goal?: RatioGoal; budget?: string } = {},
): RatioRow {
  const ratio = ratioOf(figure.value, floor?.value);
  return {
    figure,
    floor,
    ratio,
    goal: options.goal,
    met: meets(ratio, options.goal),
    budget: options.budget,
  };
}

/** two decimals under 10, one under 100, none above; thousands separated */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  const magnitude = Math.abs(value);
  const digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  const rounded = Number(value.toFixed(digits)) + 0; // + 0: no "-0.00"
  return rounded.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `31x`, `7.5x`, `0.34x`: two significant digits below 1, where goals like "a fifth" are read */
export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined) return "";
  if (ratio >= 10) return `${Math.round(ratio)}x`;
  if (ratio >= 1) return `${ratio.toFixed(1)}x`;
  return `${ratio.toPrecision(2)}x`;
}

export function formatGoal(goal: RatioGoal | undefined, met: boolean | undefined): string {
  if (goal === undefined) return "";
  const bounds = [
    goal.atMost === undefined ? "" : `<= ${goal.atMost}x`,
    goal.atLeast === undefined ? "" : `>= ${goal.atLeast}x`,
  ].filter((bound) => bound !== "");
  const verdict = met === undefined ? "" : met ? ": met" : ": **not met**";
  return `${bounds.join(", ")}${verdict}`;
}

const measureText = (measure: Measure | undefined): string =>
  measure === undefined ? "" : `${formatNumber(measure.value)} ${measure.unit}`;

/** a Markdown table with padded columns: readable in a terminal, and pasted as it is into the README */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const lines = [header, ...rows].map((row) => header.map((_, column) => cell(row[column] ?? "")));
  const widths = header.map((_, column) =>
    Math.max(3, ...lines.map((line) => (line[column] as string).length)),
  );
  const render = (line: readonly string[]) =>
    `| ${line.map((text, column) => text.padEnd(widths[column] as number)).join(" | ")} |`;
  const [first, ...rest] = lines;
  return [
    render(first as string[]),
    render(widths.map((width) => "-".repeat(width))),
    ...rest.map(render),
  ].join("\n");
}

export function ratioTable(rows: readonly RatioRow[]): string {
  return markdownTable(
    ["figure", "value", "floor", "floor value", "ratio", "goal (ratio)", "budget"],
    rows.map((row) => [
      row.figure.name,
      measureText(row.figure),
      row.floor?.name ?? "",
      measureText(row.floor),
      formatRatio(row.ratio),
      formatGoal(row.goal, row.met),
      row.budget ?? "",
    ]),
  );
}

/** the rows as the run's JSON summary carries them */
export function ratioSummary(rows: readonly RatioRow[]) {
  return rows.map((row) => ({
    figure: row.figure.name,
    value: row.figure.value,
    unit: row.figure.unit,
    floor: row.floor?.name ?? null,
    floorValue: row.floor?.value ?? null,
    floorUnit: row.floor?.unit ?? null,
    ratio: row.ratio === undefined ? null : Number(row.ratio.toPrecision(3)),
    goal: row.goal ?? null,
    met: row.met ?? null,
    budget: row.budget ?? null,
  }));
}
