// The API key travels in a header of every request: over http:// anyone on the path reads it. So
// a base URL is http:// only for a loopback host (the local emulator), unless the user says so
// explicitly (`allowInsecureHttp`): the one rule, which the provider and the CLI apply too.

/**
 * `localhost`, 127.0.0.0/8 and ::1: addresses that never leave the machine. Not names under
 * `.localhost`: RFC 6761 says resolvers should keep them local, not must, and one that asks DNS
 * lets whoever answers on the network read the key.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost") return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  return /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Why this base URL would send the key in clear, or undefined when it would not (https://, a
 * loopback host, or `allowInsecureHttp`). The caller says how to allow it in its own terms.
 */
export function insecureBaseUrlProblem(baseUrl: string, allowInsecureHttp: boolean): string | undefined {
  if (allowInsecureHttp) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined; // not a URL: the URL rule names that
  }
  if (url.protocol !== "http:" || isLoopbackHost(url.hostname)) return undefined;
  return `must be https:// for a host other than loopback (localhost, 127.0.0.0/8, ::1): over http:// the API key would travel in clear text to ${url.host}`;
}
