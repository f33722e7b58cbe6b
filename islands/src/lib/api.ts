// The API client every island uses: same-origin JSON, the one error shape of the API
// (`{ error: { code, message, fields? } }`) turned into ApiError.
import type { ErrorBody } from "../api/types";
import { takeEarlyRead } from "./early";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

type Method = "GET" | "POST" | "PUT";

export async function api<T>(path: string, method: Method = "GET", body?: unknown): Promise<T> {
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
    throw new ApiError(0, "network_error", "We could not reach the server. Please check your connection.");
  }
  if (res.status === 204) return undefined as T;
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    // Whatever answered may not be the API (a proxy's HTML error page): trust no field.
    const e = (data as Partial<ErrorBody> | null)?.error as Partial<ErrorBody["error"]> | undefined;
    throw new ApiError(res.status, e?.code ?? "error", e?.message ?? `Request failed (${res.status})`, e?.fields ?? {});
  }
  return data as T;
}

export const post = <T>(path: string, body: unknown = {}) => api<T>(path, "POST", body);
export const put = <T>(path: string, body: unknown = {}) => api<T>(path, "PUT", body);
