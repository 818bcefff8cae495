// Which write-only field each read-only flag reports: the server computes the flags from it, and
// drift review reads a secret's presence through it.
import { describe, expect, it } from "vitest";
import { holdsSecret, readOnlyFields, SOURCE_TYPES, secretPresenceFlags, writeOnlyFields } from "@asset-delivery/sdk";

describe("secretPresenceFlags", () => {
  it("pairs every flag of the web types with its secret", () => {
    expect(secretPresenceFlags("webfolder")).toEqual([
      { flag: "password_set", secret: "password" },
      { flag: "request_handshake_set", secret: "request_handshake" },
      { flag: "request_signing_key_set", secret: "request_signing_key" },
    ]);
  });

  it("reports upload credentials through allows_upload on storage types, and nothing for s3_compatible", () => {
    expect(secretPresenceFlags("s3")).toEqual([{ flag: "allows_upload", secret: "upload_credentials" }]);
    expect(secretPresenceFlags("s3_compatible")).toEqual([]);
  });

  it("names only write-only fields of the same type", () => {
    for (const type of SOURCE_TYPES) {
      for (const { secret } of secretPresenceFlags(type)) expect(writeOnlyFields(type)).toContain(secret);
    }
  });

  it("has every read-only field of the table declare the secret it reports", () => {
    for (const type of SOURCE_TYPES) expect(secretPresenceFlags(type).map((f) => f.flag)).toEqual(readOnlyFields(type));
  });
});

describe("holdsSecret: whether a live Source holds a write-only field, where the API says", () => {
  it("by its flag, yes for a field its type requires, undefined where the API does not say", () => {
    // As the API returns them: a deployment with its flags.
    const deployments = {
      lacking: { type: "webfolder", password_set: false },
      holding: { type: "webfolder", password_set: true },
      noUpload: { type: "s3", allows_upload: false },
    } as const;
    expect(holdsSecret(deployments.lacking, "password")).toBe(false);
    expect(holdsSecret(deployments.holding, "password")).toBe(true);
    expect(holdsSecret({ type: "s3" }, "s3_secret_key")).toBe(true);
    expect(holdsSecret(deployments.noUpload, "upload_credentials")).toBe(false);
    expect(holdsSecret({ type: "s3_compatible" }, "upload_credentials")).toBeUndefined();
  });
});
