// The Source resource as a program declares it (Pulumi's mock monitor: no engine, no API): the
// write-only fields leave `deployment` for `deploymentSecrets`, which is a secret even when the
// program passed plain values.
import { beforeAll, describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { Source } from "../../provider/src";
import { SERIALIZED_PROVIDER } from "../../provider/src/dynamic/serialized-provider";

const registered: pulumi.runtime.MockResourceArgs[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    false,
  );
});

/** An Output's value and secretness. */
async function resolved<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await new Promise<T>((resolve) => output.apply(resolve));
  return { value, secret: await (output as unknown as { isSecret: Promise<boolean> }).isSecret };
}

describe("Source", () => {
  it("moves write-only fields into the secret deploymentSecrets, whatever the program passed", async () => {
    const source = new Source("photos", {
      name: "Photos",
      deployment: {
        type: "webfolder",
        serviceSubdomains: [pulumi.output("photos")],
        webfolderBaseUrl: "https://origin.example.com/",
        password: "plain-password",
        requestHandshake: pulumi.secret("h".repeat(32)),
      },
    });
    await resolved(source.urn);
    const args = registered.find((r) => r.name === "photos")!;
    expect(args.type).toBe("pulumi-nodejs:dynamic/assetdelivery:Source");
    expect(args.inputs.__provider).toBe(SERIALIZED_PROVIDER);
    expect(args.inputs.deployment).toEqual({
      type: "webfolder",
      serviceSubdomains: ["photos"],
      webfolderBaseUrl: "https://origin.example.com/",
    });
    // Registered as a secret: the wire format's secret wrapper around the values.
    expect(args.inputs.deploymentSecrets).toEqual({
      [specialSigKey]: specialSecretSig,
      value: { password: "plain-password", requestHandshake: "h".repeat(32) },
    });
    expect(await resolved(source.deploymentSecrets)).toEqual({
      value: { password: "plain-password", requestHandshake: "h".repeat(32) },
      secret: true,
    });
    expect((await resolved(source.deployment)).secret).toBe(false);
  });

  it("registers the provider options given, and no output for an option left out", async () => {
    const given = new Source("given", {
      name: "Given",
      deployment: { type: "webproxy", serviceSubdomains: ["given"] },
      waitForDeployment: false,
      deploymentTimeoutSeconds: 60,
    });
    const absent = new Source("absent", { name: "Absent", deployment: { type: "webproxy", serviceSubdomains: ["absent"] } });
    await Promise.all([resolved(given.urn), resolved(absent.urn)]);
    const inputs = (name: string) => registered.find((r) => r.name === name)!.inputs;
    expect(inputs("given")).toMatchObject({ waitForDeployment: false, deploymentTimeoutSeconds: 60 });
    expect(inputs("given")).not.toHaveProperty("adoptSourceId");
    expect("waitForDeployment" in given).toBe(true);
    expect(["waitForDeployment", "deploymentTimeoutSeconds", "adoptSourceId", "purgeAfterUpdate"].filter((key) => key in absent)).toEqual(
      [],
    );
  });

  it("passes the replaceOnChanges and customTimeouts the host does not (create and update only), and nothing when they are not given", async () => {
    const deployment = (subdomain: string) => ({ type: "webproxy" as const, serviceSubdomains: [subdomain] });
    const sources = [
      new Source(
        "optioned",
        { name: "O", deployment: deployment("optioned") },
        {
          replaceOnChanges: ["name", "deployment.customDomains"],
          customTimeouts: { create: "2m", update: "30s", delete: "1h" },
        },
      ),
      new Source("replacing", { name: "R", deployment: deployment("replacing") }, { replaceOnChanges: ["*"], customTimeouts: {} }),
      new Source("deleting", { name: "D", deployment: deployment("deleting") }, { customTimeouts: { delete: "1h" }, replaceOnChanges: [] }),
      new Source("plain", { name: "P", deployment: deployment("plain") }),
    ];
    await Promise.all(sources.map((source) => resolved(source.urn)));
    const inputs = (name: string) => registered.find((r) => r.name === name)!.inputs;
    expect(inputs("optioned").resourceOptions).toEqual({
      replaceOnChanges: ["name", "deployment.customDomains"],
      customTimeouts: { create: "2m", update: "30s" },
    });
    expect(inputs("replacing").resourceOptions).toEqual({ replaceOnChanges: ["*"] });
    expect(inputs("deleting")).not.toHaveProperty("resourceOptions");
    expect(inputs("plain")).not.toHaveProperty("resourceOptions");
  });

  it("refuses a deployment that is not an object, naming the resource", () => {
    expect(
      () => new Source("broken", { name: "x", deployment: pulumi.output({ type: "webproxy", serviceSubdomains: ["p"] }) as never }),
    ).toThrow("Source broken: deployment: must be an object (its fields may be Pulumi inputs, the object itself not)");
  });
});
