// The client loads two parts of undici directly instead of its index (which also loads fetch,
// WebSocket, the caches and the mocks). These must stay the very objects undici exports.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// undici as the sdk package resolves it.
const requireFromSdk = createRequire(require.resolve("@asset-delivery/sdk"));

describe("the parts of undici the client loads", () => {
  it("are undici's own Agent and request API", () => {
    const undici = requireFromSdk("undici");
    expect(requireFromSdk("undici/lib/dispatcher/agent")).toBe(undici.Agent);
    expect(requireFromSdk("undici/lib/api").request).toBe(undici.Dispatcher.prototype.request);
  });

  it("leave fetch and WebSocket unloaded when only the sdk is loaded", async () => {
    const { execFileSync } = await import("node:child_process");
    const script = `
      require(${JSON.stringify(require.resolve("@asset-delivery/sdk"))});
      const loaded = Object.keys(require.cache).filter((f) => f.includes("/undici/"));
      console.log(JSON.stringify({ fetch: loaded.some((f) => f.includes("/lib/web/fetch/")), websocket: loaded.some((f) => f.includes("/websocket/")), agent: loaded.some((f) => f.endsWith("/lib/dispatcher/agent.js")) }));
    `;
    const loaded = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
    expect(loaded).toEqual({ fetch: false, websocket: false, agent: true });
  });
});
