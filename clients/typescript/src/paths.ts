import type { paths } from "./schema.js";

/**
 * The generated `paths`, split by credential: the tenant API without its `/{tenant}` prefix and without the
 * `tenant` path parameter (the client puts the tenant in its base URL), and the batch service under `/v1`.
 */

type Flat<T> = { [K in keyof T]: T[K] };

/** path parameters without `tenant`; none left makes `path` optional, so calls need no `params` */
type PathWithoutTenant<Path> = keyof Omit<Path, "tenant"> extends never
  ? { path?: never }
  : { path: Flat<Omit<Path, "tenant">> };

type ParametersWithoutTenant<Parameters> = Parameters extends { path: infer Path }
  ? Flat<Omit<Parameters, "path"> & PathWithoutTenant<Path>>
  : Parameters;

type OperationWithoutTenant<Operation> = Operation extends { parameters: infer Parameters }
  ? Flat<Omit<Operation, "parameters"> & { parameters: ParametersWithoutTenant<Parameters> }>
  : Operation;

type TenantPath = Extract<keyof paths, `/{tenant}/${string}`>;

/** `/v4.0/health/...` and `/fhir/...`, as under `{baseUrl}/{tenant}` */
export type TenantPaths = {
  [P in TenantPath as P extends `/{tenant}${infer Rest}` ? Rest : never]: {
    [M in keyof paths[P]]: M extends "parameters" ? paths[P][M] : OperationWithoutTenant<paths[P][M]>;
  };
};

/** the batch claims service, bearer token (the token endpoint itself is the client's business) */
export type BatchPaths = Omit<Pick<paths, Extract<keyof paths, `/v1/${string}`>>, "/v1/auth/token">;

type Json<Response> = Response extends { content: { "application/json": infer Body } } ? Body : never;

export type BatchAccepted = Json<BatchPaths["/v1/claims/batch/upload"]["post"]["responses"][202]>;
export type BatchStatus = Json<BatchPaths["/v1/claims/batch/{batch_id}"]["get"]["responses"][200]>;
export type BatchResultsPage = Json<
  BatchPaths["/v1/claims/batch/{batch_id}/results"]["get"]["responses"][200]
>;
export type BatchResultClaim = BatchResultsPage["claims"][number];
export type ProviderRankingPage = Json<
  BatchPaths["/v1/claims/batch/{batch_id}/providers"]["get"]["responses"][200]
>;
export type ProviderRanking = ProviderRankingPage["providers"][number];
export type MemberRankingPage = Json<
  BatchPaths["/v1/claims/batch/{batch_id}/members"]["get"]["responses"][200]
>;
export type MemberRanking = MemberRankingPage["members"][number];
export type ResultsFilter = NonNullable<
  BatchPaths["/v1/claims/batch/{batch_id}/results"]["get"]["parameters"]["query"]["filter"]
>;
