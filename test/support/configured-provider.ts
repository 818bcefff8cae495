// The Source provider configured as the engine would, against a test server with its Account Admin
// key: for tests that call its operations directly (no Pulumi engine).
import { sourceProvider } from "../../provider/src/dynamic/runtime";
import type { TestServer } from "./server";

export async function configureSourceProvider(server: TestServer): Promise<void> {
  const config: Record<string, string> = { "assetdelivery:baseUrl": server.url, "assetdelivery:apiKey": server.adminKey };
  await sourceProvider.configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key]! } });
}
