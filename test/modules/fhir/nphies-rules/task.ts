import type { Ctx } from "./context.js";
import { child, codeOf, isObject, type JsonObject, objects, str } from "./json.js";
import { reference } from "./refs.js";
import { bind, card, fail, notFuture, type Rule, required, rule } from "./rule.js";

const INF = Number.POSITIVE_INFINITY;
const CS = "http://nphies.sa/terminology/CodeSystem/";
const TASK_STATUS = ["http://hl7.org/fhir/task-status"];
// Task.intent is bound to task-intent, which includes the request-intent codes
const TASK_INTENT = ["http://hl7.org/fhir/task-intent", "http://hl7.org/fhir/request-intent"];

const task = (ctx: Ctx): JsonObject =>
  ctx.response.focal?.resourceType === "Task" ? ctx.response.focal : {};
const requestTask = (ctx: Ctx): JsonObject | undefined =>
  ctx.request?.focal?.resourceType === "Task" ? ctx.request.focal : undefined;
const on =
  (...events: string[]) =>
  (ctx: Ctx) =>
    events.includes(ctx.response.event ?? "") && ctx.response.focal?.resourceType === "Task";
const cancel = on("cancel-response");
const status = on("status-response");
const outputs = (ctx: Ctx) => objects(task(ctx).output);
const outputType = (output: JsonObject) => codeOf(output.type);
const outputValue = (output: JsonObject) => Object.keys(output).find((key) => key.startsWith("value"));

/** a fixed value on the payer's Task, for an event */
const fixed = (
  id: string,
  element: string,
  read: (t: JsonObject) => unknown,
  allowed: string[],
  when: (ctx: Ctx) => boolean,
) =>
  rule(
    id,
    "Task",
    (ctx) => {
      const value = str(read(task(ctx)));
      return value !== undefined && allowed.includes(value)
        ? []
        : fail(id, `Task.${element}`, `"${value}" is not ${allowed.join(" or ")}`);
    },
    when,
  );

export const TASK_RULES: Rule[] = [
  required("IC-00301", "Task.meta"),
  card("IC-00302", "Task.meta.profile", 1, INF),
  card("IC-00296", "Task.identifier", 1, INF),
  required("IC-00308", "Task.status"),
  required("IC-00299", "Task.intent"),
  required("IC-00306", "Task.priority"),
  required("IC-00295", "Task.code"),
  required("IC-00393", "Task.focus"),
  required("IC-00399", "Task.focus", cancel),
  required("IC-00402", "Task.focus", status),
  required("IC-00294", "Task.authoredOn"),
  card("IC-00300", "Task.lastModified", 0, 1),
  required("IC-00307", "Task.requester"),
  required("IC-00305", "Task.owner"),
  card("IC-00395", "Task.reasonCode", 0, 1),
  card("IC-00392", "Task.output", 0, INF),
  required("IC-00303", "Task.output.type"),
  required("IC-00304", "Task.output.value[x]"),
  card("IC-01408", "Task.output.valueCodeableConcept.extension:expression", 0, 1),
  card("IC-01407", "Task.output.valueCodeableConcept.extension", 0, 1),
  fixed("IC-00005", "status", (t) => t.status, ["completed", "failed"], status),
  fixed("IC-00006", "intent", (t) => t.intent, ["order"], status),
  fixed("IC-00007", "priority", (t) => t.priority, ["routine"], status),
  fixed("IC-00008", "code", (t) => codeOf(t.code), ["status"], status),
  fixed("IB-00378", "status", (t) => t.status, ["completed", "failed"], status),
  fixed("IB-00379", "intent", (t) => t.intent, ["order"], status),
  fixed("IB-00380", "priority", (t) => t.priority, ["routine"], status),
  fixed("IB-00381", "code", (t) => codeOf(t.code), ["status"], status),
  fixed("IB-00310", "status", (t) => t.status, ["completed", "failed"], cancel),
  fixed("IB-00311", "intent", (t) => t.intent, ["order"], cancel),
  fixed("IB-00312", "priority", (t) => t.priority, ["routine"], cancel),
  fixed("IB-00313", "code", (t) => codeOf(t.code), ["cancel", "nullify"], cancel),
  fixed("BV-00329", "intent", (t) => t.intent, ["order"], on("cancel-response", "status-response")),
  fixed("BV-00214", "code", (t) => codeOf(t.code), ["status"], status),
  // the response carries the code the request asked for
  fixed(
    "BV-00215",
    "code",
    (t) => codeOf(t.code),
    ["cancel"],
    (ctx) => cancel(ctx) && codeOf(requestTask(ctx)?.code) === "cancel",
  ),
  fixed(
    "BV-00213",
    "code",
    (t) => codeOf(t.code),
    ["nullify"],
    (ctx) => cancel(ctx) && codeOf(requestTask(ctx)?.code) === "nullify",
  ),
  ...["IB-00315", "BV-00241"].map((id) =>
    rule(
      id,
      "Task",
      (ctx) =>
        outputs(ctx).flatMap((output, i) =>
          outputType(output) === "error"
            ? []
            : fail(id, `Task.output[${i}].type`, `${outputType(output)} on a cancel response`),
        ),
      cancel,
    ),
  ),
  bind("IB-00228", "Task.status", TASK_STATUS),
  bind("IB-00220", "Task.intent", TASK_INTENT),
  bind("IB-00226", "Task.priority", ["http://hl7.org/fhir/request-priority"]),
  bind("IB-00218", "Task.code", [`${CS}task-code`]),
  bind("IB-00227", "Task.reasonCode", [`${CS}task-reason-code`]),
  bind("IB-00314", "Task.reasonCode", [`${CS}task-reason-code`], cancel),
  bind("IB-00229", "Task.statusReason", [`${CS}task-status-reason`]),
  bind("IB-00224", "Task.output.type", [`${CS}task-output-type`]),
  bind("IB-00286", "Task.output.type", [`${CS}task-output-type`]),
  // an error output names an adjudication-error; a status output a claim-response-outcome code
  rule("IB-00373", "Task", (ctx) =>
    outputs(ctx).flatMap((output, i) => {
      const known = (system: string, code: string | undefined) =>
        code !== undefined && (ctx.terminology.get(system)?.has(code) ?? true);
      const type = outputType(output);
      const ok =
        type === "error"
          ? known(`${CS}adjudication-error`, codeOf(output.valueCodeableConcept, `${CS}adjudication-error`))
          : type === "status"
            ? known("http://hl7.org/fhir/remittance-outcome", str(output.valueCode)) ||
              known(`${CS}claim-response-outcome`, str(output.valueCode))
            : true;
      return ok
        ? []
        : fail("IB-00373", `Task.output[${i}].value[x]`, `not a code of the ${type} output's value set`);
    }),
  ),
  ...["BV-00239", "BV-00240"].map((id, k) =>
    rule(id, "Task", (ctx) =>
      outputs(ctx).flatMap((output, i) =>
        (k === 0 ? output.type : outputValue(output)) === undefined
          ? fail(id, `Task.output[${i}]`, k === 0 ? "no type" : "no value")
          : [],
      ),
    ),
  ),
  // an HIC that fails a task sends no output (only NPHIES does)
  ...["BV-00242", "BV-00256"].map((id) =>
    rule(
      id,
      "Task",
      (ctx) => (outputs(ctx).length ? fail(id, "Task.output", "output on a failed task sent by an HIC") : []),
      (ctx) => task(ctx).status === "failed" && (id === "BV-00242" || codeOf(task(ctx).code) === "cancel"),
    ),
  ),
  ...["BV-00249", "IC-00400"].map((id) =>
    rule(
      id,
      "Task",
      (ctx) =>
        outputs(ctx).flatMap((output, i) =>
          outputType(output) === "error" &&
          !objects(isObject(output.valueCodeableConcept) ? output.valueCodeableConcept.extension : []).length
            ? fail(
                id,
                `Task.output[${i}].valueCodeableConcept.extension:expression`,
                "missing on an error output",
              )
            : [],
        ),
      id === "IC-00400" ? cancel : () => true,
    ),
  ),
  rule(
    "BV-00466",
    "Task",
    (ctx) =>
      codeOf(task(ctx).reasonCode) === codeOf(requestTask(ctx)?.reasonCode)
        ? []
        : fail(
            "BV-00466",
            "Task.reasonCode",
            `${codeOf(task(ctx).reasonCode)} differs from the request's ${codeOf(requestTask(ctx)?.reasonCode)}`,
          ),
    (ctx) => requestTask(ctx) !== undefined,
  ),
  rule("BV-00467", "Task", (ctx) =>
    task(ctx).reasonCode !== undefined && !["cancel", "nullify"].includes(codeOf(task(ctx).code) ?? "")
      ? fail("BV-00467", "Task.reasonCode", "reasonCode on a task that is not cancel/nullify")
      : [],
  ),
  rule(
    "BV-00464",
    "Task",
    (ctx) =>
      codeOf(task(ctx).statusReason) === "claimed"
        ? fail("BV-00464", "Task.statusReason", "claimed is not a cancellation rejection reason")
        : [],
    cancel,
  ),
  // cancel and status act on a Claim (or the ClaimResponse of an advanced authorization)
  ...(
    [
      ["BV-00132", cancel],
      ["BV-00135", status],
    ] as const
  ).map(([id, when]) =>
    rule(
      id,
      "Task",
      (ctx) => {
        const type = str(child(task(ctx).focus, "type"));
        return type === "Claim" || type === "ClaimResponse"
          ? []
          : fail(id, "Task.focus.type", `${type} is not Claim`);
      },
      when,
    ),
  ),
  rule("BV-00309", "Task", (ctx) =>
    (str(task(ctx).description)?.length ?? 0) > 2000
      ? fail("BV-00309", "Task.description", "longer than 2000")
      : [],
  ),
  rule("BV-00471", "Task", (ctx) => notFuture("BV-00471", "Task.lastModified", task(ctx).lastModified)),
  reference("RE-00133", "Task.focus"),
  reference("RE-00139", "Task.owner"),
  reference("RE-00143", "Task.requester"),
  reference("RE-00134", "Task.for"),
  reference("RE-00138", "Task.output.valueReference"),
  reference("RE-00131", "Task.basedOn"),
  reference("RE-00136", "Task.insurance"),
  reference("RE-00144", "Task.restriction.recipient"),
  reference("RE-00132", "Task.encounter"),
  reference("RE-00137", "Task.location"),
  reference("RE-00140", "Task.partOf"),
  reference("RE-00141", "Task.reasonReference"),
  reference("RE-00142", "Task.relevantHistory"),
];
