// The HTTP side of the web client: same-origin JSON calls to /v1/..., problem+json turned into
// an ApiError that carries the contract's `code`. (v4) Every call says the page's language in
// Accept-Language: a sign-up keeps it as the language of the account's mails.

import { acceptLanguage } from "./language.js";

const TIMEOUT_MS = 15000;

/** A failed call: `status` 0 means the server could not be reached. */
export class ApiError extends Error {
  constructor(status, code, detail, extra = {}) {
    super(detail || code);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.detail = detail;
    Object.assign(this, extra);
  }
}

/**
 * Calls the API. Resolves with the parsed JSON body (null for 204); rejects with ApiError.
 * `token` adds `Authorization: Bearer …`.
 */
export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": acceptLanguage() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (e) {
    throw new ApiError(0, "network", e && e.name === "TimeoutError" ? "timeout" : "unreachable");
  }
  const text = await response.text();
  let parsed = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (response.ok) return parsed;
  const problem = parsed && typeof parsed === "object" ? parsed : {};
  throw new ApiError(response.status, problem.code || `http-${response.status}`, problem.detail, {
    reason: problem.reason,
    retryAfter: Number(response.headers.get("Retry-After")) || undefined,
  });
}
