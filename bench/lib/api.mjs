// Calls to the Management API as a plain client sends them, for the benchmarks' setup and raw
// baselines (no sdk in between).

/** The headers of a request with an API key. */
export function apiHeaders(key) {
  return { authorization: `Bearer ${key}`, accept: "application/vnd.api+json" };
}

/** One call (a JSON:API body when given); a non-2xx answer throws with its body. Resolves with the body's bytes. */
export async function apiCall(url, key, method = "GET", body) {
  const response = await fetch(url, {
    method,
    headers: { ...apiHeaders(key), ...(body && { "content-type": "application/vnd.api+json" }) },
    body: body && JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${bytes.toString()}`);
  return { status: response.status, headers: Object.fromEntries(response.headers), body: bytes };
}

/** apiCall, resolving with the parsed document. */
export async function apiDocument(url, key, method = "GET", body) {
  return JSON.parse((await apiCall(url, key, method, body)).body.toString());
}
