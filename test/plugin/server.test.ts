// The gRPC face of the plugin (provider/src/plugin/server.ts), driven without the engine: what a
// handler sends back for what NativeProvider answered.
import { describe, expect, it } from "vitest";
import { providerProtos } from "../../provider/src/engine/grpc";
import { resourceProviderService } from "../../provider/src/plugin/server";
import type { NativeProvider } from "../../provider/src/plugin/provider";
import { decodeStruct, encodeStruct, type Properties } from "../../provider/src/plugin/wire";

const protos = providerProtos();

/** The Read handler's response to `request`, the provider answering `answer`. */
async function readResponse(
  answer: { id: string; outputs?: Properties; inputs?: Properties },
  request: InstanceType<typeof protos.provider.ReadRequest>,
) {
  const provider = { read: () => Promise.resolve(answer) } as unknown as NativeProvider;
  const read = resourceProviderService(provider, "0.0.0").read as (
    call: { request: unknown },
    callback: (error: unknown, response?: InstanceType<typeof protos.provider.ReadResponse>) => void,
  ) => void;
  return new Promise<InstanceType<typeof protos.provider.ReadResponse>>((resolve, reject) =>
    read({ request }, (error, response) => (error ? reject(new Error(JSON.stringify(error))) : resolve(response!))),
  );
}

describe("the plugin's Read", () => {
  const state = encodeStruct({ name: "Photos", deployment: { type: "s3", s3SecretKey: "k" } }, [["deployment", "s3SecretKey"]]);
  const inputs = encodeStruct({ name: "Photos", deployment: { type: "s3", s3SecretKey: "k" } }, [["deployment", "s3SecretKey"]]);
  const request = () => new protos.provider.ReadRequest().setId("s1").setProperties(state).setInputs(inputs);

  it("sends the request's own state and inputs back when the provider keeps them (an unchanged Source)", async () => {
    const response = await readResponse({ id: "s1" }, request());
    expect(response.getId()).toBe("s1");
    expect(response.getProperties()).toBe(state);
    expect(response.getInputs()).toBe(inputs);
  });

  it("sends what the provider answered, encoded, when it answers them", async () => {
    const outputs = { values: { name: "Renamed", deployment: { type: "s3", s3SecretKey: "k" } }, secrets: [["deployment", "s3SecretKey"]] };
    const response = await readResponse({ id: "s1", outputs, inputs: outputs }, request());
    expect(decodeStruct(response.getProperties())).toEqual(outputs);
    expect(decodeStruct(response.getInputs())).toEqual(outputs);
  });

  it("sends neither for a Source gone", async () => {
    const response = await readResponse({ id: "" }, request());
    expect(response.getId()).toBe("");
    expect(response.hasProperties()).toBe(false);
    expect(response.hasInputs()).toBe(false);
  });
});
