// The video worker's image fetch refuses non-public addresses (SSRF): IP literals, names that
// resolve to them, and every redirect hop, with one neutral error whatever went wrong.
import * as dns from "node:dns";
import { createServer, type Server } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { VIDEO_ERROR_CODES } from "@asset-delivery/server";
import { createImageFetcher, DEFAULT_IMAGE_FETCH_OPTIONS } from "../../server/src/videos/image-source";
import { isPublicAddress } from "../../server/src/videos/public-address";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const NEUTRAL = "the image could not be fetched: the URL must be publicly reachable and answer with a 2xx status";
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

describe("isPublicAddress", () => {
  it.each(["8.8.8.8", "1.1.1.1", "93.184.216.34", "2001:4860:4860::8888", "2606:4700::1111", "::ffff:8.8.8.8"])(
    "%s is public",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "224.0.0.1",
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:10.0.0.1",
    "::127.0.0.1",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "64:ff9b::7f00:1",
    "2002:7f00:1::1",
    "ff02::1",
    "localhost",
    "not an address",
  ])("%s is not", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

// The "outside" server listens on 127.0.0.2, which the fetcher under test treats as public (there
// is no internet here); the internal one on 127.0.0.1 must never be reached.
let outside: Server;
let internal: Server;
let outsidePort: number;
let internalPort: number;
let internalHits = 0;

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  internal = createServer((_request, response) => {
    internalHits++;
    response.writeHead(200, { "content-type": "image/png" }).end(PNG);
  });
  internalPort = await listen(internal, "127.0.0.1");
  outside = createServer((request, response) => {
    const redirects: Record<string, string> = {
      "/to-loopback": `http://127.0.0.1:${internalPort}/secret.png`,
      "/to-localhost": `http://localhost:${internalPort}/secret.png`,
      "/to-mapped": `http://[::ffff:127.0.0.1]:${internalPort}/secret.png`,
      "/to-metadata": "http://169.254.169.254/latest/meta-data/",
      "/to-internal-name": `http://internal.example:${internalPort}/secret.png`,
      "/to-self": `http://public.example:${outsidePort}/photo.png`,
    };
    const target = redirects[request.url ?? ""];
    if (target) response.writeHead(302, { location: target }).end();
    else if (request.url === "/photo.png") response.writeHead(200, { "content-type": "image/png" }).end(PNG);
    else response.writeHead(404).end();
  });
  outsidePort = await listen(outside, "127.0.0.2");
});
afterAll(async () => {
  for (const server of [outside, internal]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

// Names of the test's world; anything else goes to the system resolver.
const names: Record<string, string> = {
  "public.example": "127.0.0.2",
  "internal.example": "127.0.0.1",
  "metadata.example": "169.254.169.254",
};
const lookup: LookupFunction = (hostname, options, callback) => {
  const address = names[hostname];
  if (address === undefined) return dns.lookup(hostname, options, callback);
  if (options.all) callback(null, [{ address, family: 4 }]);
  else callback(null, address, 4);
};

function fetcher() {
  return createImageFetcher({
    ...DEFAULT_IMAGE_FETCH_OPTIONS,
    timeoutMs: 5_000,
    lookup,
    isAllowedAddress: (address) => address === "127.0.0.2" || isPublicAddress(address),
  });
}

describe("the image fetch", () => {
  it("fetches from an allowed address, by name and through a redirect", async () => {
    const images = fetcher();
    try {
      expect((await images.fetch(`http://public.example:${outsidePort}/photo.png`)).format).toBe("png");
      expect((await images.fetch(`http://127.0.0.2:${outsidePort}/to-self`)).format).toBe("png");
    } finally {
      await images.close();
    }
  });

  it.each([
    ["a loopback literal", () => `http://127.0.0.1:${internalPort}/secret.png`],
    ["a name resolving to loopback", () => `http://internal.example:${internalPort}/secret.png`],
    ["localhost", () => `http://localhost:${internalPort}/secret.png`],
    ["a name resolving to the metadata address", () => "http://metadata.example/latest/meta-data/"],
    ["a redirect to a loopback literal", () => `http://public.example:${outsidePort}/to-loopback`],
    ["a redirect to localhost", () => `http://public.example:${outsidePort}/to-localhost`],
    ["a redirect to an IPv4-mapped IPv6 loopback", () => `http://public.example:${outsidePort}/to-mapped`],
    ["a redirect to the metadata address", () => `http://public.example:${outsidePort}/to-metadata`],
    ["a redirect to a name resolving to loopback", () => `http://public.example:${outsidePort}/to-internal-name`],
    ["a missing page (same message as a refused address)", () => `http://public.example:${outsidePort}/missing.png`],
  ])("refuses %s with the neutral error", async (_case, url) => {
    const images = fetcher();
    const hitsBefore = internalHits;
    try {
      const error = await images.fetch(url()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ name: "VideoJobFailure", code: VIDEO_ERROR_CODES.unreachable, message: NEUTRAL });
      expect(internalHits).toBe(hitsBefore);
    } finally {
      await images.close();
    }
  });

  it("allows private addresses only when the operator says so", async () => {
    const images = createImageFetcher({ ...DEFAULT_IMAGE_FETCH_OPTIONS, allowPrivateAddresses: true });
    try {
      expect((await images.fetch(`http://127.0.0.1:${internalPort}/secret.png`)).format).toBe("png");
    } finally {
      await images.close();
    }
  });
});
