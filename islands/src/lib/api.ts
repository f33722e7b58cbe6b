// The API client every island uses: same-origin JSON, the one error shape of the API
// (`{ error: { code, message, fields? } }`) turned into ApiError, and calls typed by the API's
// own OpenAPI document (schema.d.ts): `GET("/api/admin/clients/{id}", { path: { id } })`
// answers the route's documented body, and a POST takes the route's documented request body,
// so no caller picks a type and a route the API does not have does not compile.
import type { paths } from "../api/schema";
import type { ErrorBody } from "../api/types";
import { takeEarlyRead } from "./early";
import { lang, t } from "./i18n";

/**
 * A refused or failed call. `message` and `fields` are in the page's language (the API writes
 * English; an Arabic page shows the Arabic of the messages it knows: ./api-texts);
 * `apiMessage` is the API's own text, for code that tells answers apart.
 */
export class ApiError extends Error {
  readonly apiMessage: string;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    apiMessage: string = message,
  ) {
    super(message);
    this.apiMessage = apiMessage;
  }
}

/** The API's words in the page's language; on an English page, or if that fails, as they came. */
async function inPageLanguage(message: string, fields: Record<string, string>) {
  const language = lang();
  if (language === "en") return { message, fields };
  try {
    return await (await import("./api-texts")).apiTexts(language, message, fields);
  } catch {
    return { message, fields };
  }
}

type Method = "GET" | "POST" | "PUT" | "PATCH";

async function api<T>(path: string, method: Method = "GET", body?: unknown): Promise<T> {
  let res: Response;
  try {
    const early = method === "GET" && body === undefined ? takeEarlyRead(path) : undefined;
    res = await (early ?? fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }));
  } catch {
    throw new ApiError(0, "network_error", t("common.error.network"));
  }
  if (res.status === 204) return undefined as T;
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    // Whatever answered may not be the API (a proxy's HTML error page): trust no field.
    const e = (data as Partial<ErrorBody> | null)?.error as Partial<ErrorBody["error"]> | undefined;
    const said = typeof e?.message === "string" ? e.message : null;
    const { message, fields } = await inPageLanguage(said ?? "", e?.fields ?? {});
    throw new ApiError(res.status, e?.code ?? "error", said === null ? t("common.error.requestFailed", { status: res.status }) : message, fields, said ?? "");
  }
  return data as T;
}

type Verb = "get" | "post" | "put" | "patch";
/** The API's paths that answer `verb`. */
export type PathsWith<V extends Verb> = {
  [P in keyof paths]: paths[P] extends { [K in V]: object } ? P : never;
}[keyof paths];
type Op<P extends keyof paths, V extends Verb> = paths[P] extends { [K in V]: infer O } ? O : never;
type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : undefined;
/** The body of an operation's success answer (200, 201, 202; nothing for 204). */
export type Answer<O> = O extends { responses: infer Rs } ? JsonOf<Rs[Extract<keyof Rs, 200 | 201 | 202 | 204>]> : never;
/** An operation's JSON request body. */
export type RequestBody<O> = O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type Params<O> = O extends { parameters: infer Ps } ? Ps : never;
type Query<O> = Params<O> extends { query?: infer Q } ? ([Q] extends [never] ? never : Q) : never;
/** Where a call goes: the path's `{names}`, and the query's fields (unset ones are left out). */
type Call<O> = (Params<O> extends { path: infer PP } ? { path: PP } : { path?: undefined }) & { query?: Query<O> };
/** The call's `path` is required when the route's path has parameters. */
type CallArgs<O> = Params<O> extends { path: object } ? [call: Call<O>] : [call?: Call<O>];

/**
 * The URL of a call: each `{name}` of the template replaced by its value (encoded), then the
 * query's set fields in their order: `/api/admin/sessions?client_id=…&date=…`.
 */
export function urlOf(template: string, call?: { path?: unknown; query?: unknown }): string {
  const values = (call?.path ?? {}) as Record<string, unknown>;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name] ?? "")));
  const query = Object.entries((call?.query ?? {}) as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return query.length ? `${path}?${query.join("&")}` : path;
}

export function GET<P extends PathsWith<"get">>(path: P, ...[call]: CallArgs<Op<P, "get">>): Promise<Answer<Op<P, "get">>> {
  return api(urlOf(path, call), "GET");
}

export function POST<P extends PathsWith<"post">>(
  path: P,
  body: RequestBody<Op<P, "post">>,
  ...[call]: CallArgs<Op<P, "post">>
): Promise<Answer<Op<P, "post">>> {
  return api(urlOf(path, call), "POST", body);
}

export function PUT<P extends PathsWith<"put">>(
  path: P,
  body: RequestBody<Op<P, "put">>,
  ...[call]: CallArgs<Op<P, "put">>
): Promise<Answer<Op<P, "put">>> {
  return api(urlOf(path, call), "PUT", body);
}

export function PATCH<P extends PathsWith<"patch">>(
  path: P,
  body: RequestBody<Op<P, "patch">>,
  ...[call]: CallArgs<Op<P, "patch">>
): Promise<Answer<Op<P, "patch">>> {
  return api(urlOf(path, call), "PATCH", body);
}

