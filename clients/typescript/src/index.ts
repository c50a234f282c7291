/**
 * A thin typed client for the Arbiter HTTP API.
 *
 * The types come from `./schema.d.ts`, generated from `openapi/openapi.json` by
 * openapi-typescript (`npm run generate`); the calls go through openapi-fetch, so every path,
 * request body and answer is checked against the OpenAPI document at compile time.
 *
 * ```ts
 * import { createArbiterClient } from "@arbiter/client";
 * const arbiter = createArbiterClient("http://localhost:8080");
 * const { data, error } = await arbiter.POST("/v1/cover", { body: coverRequest });
 * if (data) console.log(data.result.degree);
 * ```
 */
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./schema.js";

// Every schema of the document by its own name (`CoverRequest`, `CoverResponse`, `Problem`...),
// plus `paths`, `components` and `operations`.
export type * from "./schema.js";

/**
 * The media types the typed answers are read as: a question's JSON answer (`data`) and an
 * RFC 9457 problem document (`error`). Without it openapi-fetch types the answer of
 * `/v1/cover` and `/v1/movement` as `CoverResponse | string` (their SVG drawing), and an
 * `error` typed with `"application/json"` alone would be the raw `content` map, as errors are
 * `application/problem+json`. Ask for a drawing per call with
 * `headers: { Accept: "image/svg+xml" }, parseAs: "text"`.
 */
export type ArbiterMedia = "application/json" | "application/problem+json";

/** The client `createArbiterClient` returns: `GET` / `POST` typed by the document. */
export type ArbiterClient = Client<paths, ArbiterMedia>;

/**
 * A client for the Arbiter server at `baseUrl` (e.g. `http://localhost:8080`). `options`
 * are openapi-fetch's (default headers, a custom `fetch`...).
 */
export function createArbiterClient(baseUrl: string, options: Omit<ClientOptions, "baseUrl"> = {}): ArbiterClient {
  return createClient<paths, ArbiterMedia>({ ...options, baseUrl });
}
