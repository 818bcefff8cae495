// Downloads a job's source image: bounded in time and size, checked to be an image, and only from
// public addresses. Every connection, the first and each redirect hop, resolves its host name
// through a lookup that drops non-public addresses, and the socket connects to the address that
// lookup returned: a name cannot resolve to a public address for the check and a private one for
// the connection. Any failure to get a 2xx answer is one neutral error, so the error texts cannot
// be used to scan ports or tell a closed port from a missing page.
import * as dns from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import type { buildConnector, Dispatcher, request as undiciRequest } from "undici";
import { VIDEO_ERROR_CODES, VideoJobFailure } from "./failures";
import { IMAGE_FORMATS, sniffImageFormat, type ImageFormat } from "./image-format";
import { isPublicAddress } from "./public-address";

export interface ImageFetchOptions {
  /** Whole download, connection included. */
  timeoutMs: number;
  maxBytes: number;
  /**
   * Local development only: also fetch from loopback, private and link-local addresses (an image
   * server on the developer's machine). Off by default: with it on, any key can make the server
   * read its own network.
   */
  allowPrivateAddresses: boolean;
  /** Name resolution, as `dns.lookup` (injectable for tests); every answer is checked. */
  lookup?: LookupFunction;
  /** Which resolved addresses may be connected to; `isPublicAddress` unless private ones are allowed (tests narrow it). */
  isAllowedAddress?: (address: string) => boolean;
}

export const DEFAULT_IMAGE_FETCH_OPTIONS: ImageFetchOptions = {
  timeoutMs: 15_000,
  maxBytes: 20 * 1024 * 1024,
  allowPrivateAddresses: false,
};

const MAX_REDIRECTS = 5;

/** What the job says for any failure to get an answer: no detail a caller could probe with. */
const UNREACHABLE = "the image could not be fetched: the URL must be publicly reachable and answer with a 2xx status";

export type ImageFetcher = ReturnType<typeof createImageFetcher>;

export function createImageFetcher(options: ImageFetchOptions) {
  const isAllowed = options.isAllowedAddress ?? (options.allowPrivateAddresses ? () => true : isPublicAddress);
  const lookup = checkedLookup(options.lookup ?? dns.lookup, isAllowed);
  // Loaded on the first download: most processes importing the server (the CLI) never fetch an image.
  let client: Promise<{ request: typeof undiciRequest; dispatcher: Dispatcher }> | undefined;
  const loadClient = () =>
    (client ??= import("undici").then((undici) => {
      const connectVia = undici.buildConnector({ timeout: options.timeoutMs, lookup });
      // An IP literal (`http://127.0.0.1/`, or a redirect to one) is connected to without a lookup.
      const connect: buildConnector.connector = (target, callback) => {
        if (isIP(target.hostname) && !isAllowed(target.hostname)) callback(new RefusedAddressError(target.hostname), null);
        else connectVia(target, callback);
      };
      const dispatcher = new undici.Agent({ connect }).compose(undici.interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
      return { request: undici.request, dispatcher };
    }));

  return {
    /** `cancel` aborts the download (server shutdown); the time limit applies regardless. */
    async fetch(url: string, cancel?: AbortSignal): Promise<{ bytes: Buffer; format: ImageFormat }> {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
      const { request, dispatcher } = await loadClient();
      let response: Dispatcher.ResponseData;
      try {
        response = await request(url, { dispatcher, signal, headers: { accept: "image/*" } });
      } catch (error) {
        throw new VideoJobFailure(VIDEO_ERROR_CODES.unreachable, UNREACHABLE, error);
      }
      const { statusCode, headers, body } = response;
      if (statusCode < 200 || statusCode > 299) {
        body.dump().catch(() => undefined);
        throw new VideoJobFailure(VIDEO_ERROR_CODES.unreachable, UNREACHABLE, `HTTP ${statusCode}`);
      }
      const tooLarge = () =>
        new VideoJobFailure(
          VIDEO_ERROR_CODES.tooLarge,
          `the image is larger than ${megabytes(options.maxBytes)}, the most that is accepted`,
        );
      const declared = Number(headers["content-length"]);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        body.dump().catch(() => undefined);
        throw tooLarge();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > options.maxBytes) {
            body.destroy();
            throw tooLarge();
          }
          chunks.push(chunk);
        }
      } catch (error) {
        if (error instanceof VideoJobFailure) throw error;
        throw new VideoJobFailure(VIDEO_ERROR_CODES.unreachable, UNREACHABLE, error);
      }
      const bytes = Buffer.concat(chunks);
      const contentType = String(headers["content-type"] ?? "")
        .split(";")[0]!
        .trim()
        .toLowerCase();
      const format = sniffImageFormat(bytes);
      const typeFits = !contentType || contentType.startsWith("image/") || contentType === "application/octet-stream";
      if (!format || !typeFits) {
        throw new VideoJobFailure(
          VIDEO_ERROR_CODES.notAnImage,
          `the URL did not return an image (expected ${IMAGE_FORMATS.join(", ")} with an image Content-Type)`,
        );
      }
      return { bytes, format };
    },
    async close(): Promise<void> {
      if (client) await (await client).dispatcher.close();
    },
  };
}

class RefusedAddressError extends Error {
  constructor(host: string) {
    super(`${host} has no address the server may fetch from (loopback, private, link-local and other non-public addresses are refused)`);
    this.name = "RefusedAddressError";
  }
}

/** `lookup` with every answer checked: only allowed addresses reach the socket, or an error. */
function checkedLookup(lookup: LookupFunction, isAllowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const allowed = (addresses as dns.LookupAddress[]).filter((entry) => isAllowed(entry.address));
      if (allowed.length === 0) return callback(new RefusedAddressError(hostname), "");
      if (options.all) callback(null, allowed);
      else callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
