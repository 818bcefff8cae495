// The parts of `asset-delivery import --from-terraform` that need no server: reading a Terraform or
// OpenTofu state of either community provider (the fixtures are written by hand in each provider's
// documented shape: their Terraform providers cannot be installed here), the names derived from
// addresses, the settings carried over, and what Terraform is told to forget.
import { describe, expect, it } from "vitest";
import { parseTerraformState } from "../../cli/src/import/terraform";
import { removedBlocks, stateRmCommands } from "../../cli/src/import/terraform/forget";
import { carriedSettings } from "../../cli/src/import/terraform/settings";
import { durationSeconds, type TerraformSource } from "../../cli/src/import/terraform/state";
import { baseName } from "../../cli/src/import/names";
import { renderTerraformReport } from "../../cli/src/import/terraform/report";
import { pacingLimits } from "@asset-delivery/sdk";
import { sourceResource } from "../support/api-documents";
import { fixtureState } from "./terraform/fixtures";

const id = (n: number) => `${"a".repeat(22)}${String(n).padStart(2, "0")}`;
const TEAMJOURNEY = { photos: id(1), "photos-secret": "tj-secret", "thumbs-0": id(2), "thumbs-1": id(3), gone: id(4) };
const INSTAWORK = { assets: id(5), "assets-secret": "iw-secret", old: id(6), "old-secret": "iw-old", banners: id(7) };

const parse = (text: string) => parseTerraformState(text, "state.json");
const byAddress = (sources: TerraformSource[]) => Object.fromEntries(sources.map((s) => [s.address, s]));

describe("a teamjourney/imgix state (SDKv2: deployment a list of one, wait_for_deployed, timeouts)", () => {
  const sources = byAddress(parse(fixtureState("teamjourney-imgix.tfstate", TEAMJOURNEY)));

  it("yields every managed imgix_source instance, root, module and count, and nothing else", () => {
    expect(Object.keys(sources)).toEqual([
      "imgix_source.photos",
      "module.cdn.imgix_source.thumbs[0]",
      "module.cdn.imgix_source.thumbs[1]",
      "module.cdn.imgix_source.legacy",
    ]);
    expect(sources["module.cdn.imgix_source.thumbs[1]"]).toMatchObject({
      id: TEAMJOURNEY["thumbs-1"],
      configAddress: "module.cdn.imgix_source.thumbs",
      nameParts: ["cdn", "thumbs", "1"],
      kind: { provider: "teamjourney/imgix" },
      timeouts: {},
      waitForDeployed: true,
    });
  });

  it("renames imgix_subdomains, keeps the secret for the import, and reads the timeouts", () => {
    const photos = sources["imgix_source.photos"]!;
    expect(photos.deployment).toMatchObject({ type: "s3", service_subdomains: ["tf-photos"], s3_secret_key: "tj-secret" });
    expect(photos.deployment).not.toHaveProperty("imgix_subdomains");
    expect(photos).toMatchObject({ waitForDeployed: false, timeouts: { create: 2700, update: 3600 }, notCarried: [] });
  });

  it("reads SDKv2's private timeouts when the attributes do not hold them", () => {
    const state = JSON.parse(fixtureState("teamjourney-imgix.tfstate", TEAMJOURNEY));
    const photos = state.resources.find((r: { name: string; mode: string }) => r.name === "photos" && r.mode === "managed");
    photos.instances[0].attributes.timeouts = null;
    expect(byAddress(parse(JSON.stringify(state)))["imgix_source.photos"]!.timeouts).toEqual({ create: 2700, update: 3600 });
  });
});

describe("an Instawork/imgixyz state (Plugin Framework: deployment an object), from OpenTofu", () => {
  const sources = byAddress(parse(fixtureState("instawork-imgixyz.tfstate", INSTAWORK)));

  it("yields for_each instances inside a for_each module, with readable name parts", () => {
    expect(Object.keys(sources)).toEqual([
      'module.media["eu"].imgixyz_source.bucket["assets"]',
      'module.media["eu"].imgixyz_source.bucket["old"]',
      "imgixyz_source.banners",
    ]);
    const assets = sources['module.media["eu"].imgixyz_source.bucket["assets"]']!;
    expect(assets).toMatchObject({
      configAddress: "module.media.imgixyz_source.bucket",
      nameParts: ["media", "eu", "bucket", "assets"],
      kind: { provider: "Instawork/imgixyz" },
      deployment: { type: "s3", service_subdomains: ["tf-eu-assets"], s3_secret_key: "iw-secret" },
    });
    expect(baseName(assets.nameParts.join(" "))).toBe("media-eu-bucket-assets");
    // upsert_by_name has no counterpart: reported, not carried.
    expect(assets.notCarried).toEqual(["upsert_by_name"]);
  });

  it("names what is not carried over, never its value, and says which the state marks sensitive", () => {
    const state = JSON.parse(fixtureState("instawork-imgixyz.tfstate", INSTAWORK));
    const banners = state.resources.find((r: { name: string }) => r.name === "banners").instances[0];
    Object.assign(banners.attributes, { origin_token: "tok-plain-value", notes: "a note", timeouts: { read: "7m" } });
    banners.sensitive_attributes = [[{ type: "get_attr", value: "origin_token" }]];
    const source = byAddress(parse(JSON.stringify(state)))["imgixyz_source.banners"]!;
    expect(source.notCarried).toEqual(["origin_token (sensitive in the state)", "notes", "timeouts.read"]);
  });
});

describe("what is not a state of ours is refused by name", () => {
  it.each([
    ["not JSON", "{", /^state\.json is not a Terraform state: it is not JSON/],
    ["terraform show -json", '{"format_version":"1.0","values":{}}', /is the output of `terraform show -json`, not a state/],
    ["another JSON file", '{"resources":{}}', /is not a Terraform state: a state is a JSON object with "version" and "resources"/],
    ["format version 3", '{"version":3,"resources":[]}', /a Terraform state of format version 3: only version 4 is read/],
    [
      "no Source",
      '{"version":4,"resources":[{"mode":"managed","type":"aws_s3_bucket","name":"b","instances":[]}]}',
      /holds no Source: no imgix_source \(teamjourney\/imgix\) or imgixyz_source \(Instawork\/imgixyz\); it manages aws_s3_bucket$/,
    ],
    [
      "a bad id",
      '{"version":4,"resources":[{"mode":"managed","type":"imgixyz_source","name":"x","instances":[{"attributes":{"id":"12","deployment":{}}}]}]}',
      /^state\.json: imgixyz_source\.x: "id" must be a 24-character Source id \(got "12"\)$/,
    ],
    [
      "a deployment of the other shape",
      `{"version":4,"resources":[{"mode":"managed","type":"imgix_source","name":"x","instances":[{"attributes":{"id":"${id(1)}","deployment":{}}}]}]}`,
      /imgix_source\.x: "deployment" is not a list of one block, as teamjourney\/imgix writes it/,
    ],
  ])("%s", (_, text, message) => {
    expect(() => parse(text)).toThrow(message);
  });

  it("a duration that is not one", () => {
    expect(durationSeconds("1h30m", "t")).toBe(5400);
    expect(durationSeconds("90s", "t")).toBe(90);
    expect(() => durationSeconds("30 minutes", "timeouts.create")).toThrow('timeouts.create: "30 minutes" is not a duration');
  });
});

describe("Terraform's settings", () => {
  const source = (over: Partial<TerraformSource>) => ({ ...parse(fixtureState("teamjourney-imgix.tfstate", TEAMJOURNEY))[0]!, ...over });

  it("carry over where they differ from the provider's defaults", () => {
    expect(carriedSettings(source({}))).toEqual({
      options: { waitForDeployment: false, deploymentTimeoutSeconds: 3600 },
      customTimeouts: { create: "2700s", update: "3600s" },
      notes: [],
    });
    expect(carriedSettings(source({ waitForDeployed: true, timeouts: {} }))).toEqual({ options: {}, notes: [] });
  });

  it("a timeout the provider refuses is reported, not carried", () => {
    const { options, notes } = carriedSettings(source({ timeouts: { create: 7200 } }));
    expect(options).toEqual({ waitForDeployment: false });
    expect(notes).toEqual(["timeouts (7200 s): deploymentTimeoutSeconds must be from 1 to 3600 seconds; left at its default"]);
  });
});

describe("what Terraform is told", () => {
  it("removed blocks per resource of the configuration, state rm per instance, quoted for the shell", () => {
    expect(removedBlocks(["module.cdn.imgix_source.thumbs", "imgix_source.photos", "module.cdn.imgix_source.thumbs"])).toBe(
      [
        "removed {",
        "  from = imgix_source.photos",
        "",
        "  lifecycle {",
        "    destroy = false",
        "  }",
        "}",
        "",
        "removed {",
        "  from = module.cdn.imgix_source.thumbs",
        "",
        "  lifecycle {",
        "    destroy = false",
        "  }",
        "}",
      ].join("\n"),
    );
    expect(stateRmCommands(["imgix_source.photos", "module.cdn.imgix_source.thumbs[0]", `imgixyz_source.b["it's"]`])).toBe(
      [
        "terraform state rm imgix_source.photos",
        "terraform state rm 'module.cdn.imgix_source.thumbs[0]'",
        `terraform state rm 'imgixyz_source.b["it'\\''s"]'`,
      ].join("\n"),
    );
  });
});

describe("the report for the native resource", () => {
  it("maps addresses to names, gives each secret's reference in the project's language, never its value", () => {
    const [photos, thumbs] = parse(fixtureState("teamjourney-imgix.tfstate", TEAMJOURNEY));
    const live = sourceResource({
      id: TEAMJOURNEY.photos,
      name: "Photos",
      deployment: { type: "s3", service_subdomains: ["tf-photos"], s3_bucket: "bucket", s3_access_key: "AKIA", s3_secret_key: "x" },
    });
    const liveThumbs = sourceResource({
      id: TEAMJOURNEY["thumbs-0"],
      deployment: { type: "gcs", service_subdomains: ["t"], gcs_bucket: "gcs-bucket", gcs_access_key: "k", gcs_secret_key: "y" },
    });
    const report = (runtime: string, trusted = false, limits = pacingLimits(undefined)) =>
      renderTerraformReport({
        trusted,
        limits,
        origin: "state.json",
        stack: "prod",
        target: "import.json",
        native: true,
        runtime,
        imported: [
          {
            source: photos!,
            live,
            name: "photos",
            settings: carriedSettings(photos!),
            secrets: { s3SecretKey: "tj-secret" },
            secretNotes: [],
            secretsMissing: [],
            secretsNotHeld: [],
          },
          {
            source: thumbs!,
            live: liveThumbs,
            name: "cdn-thumbs-0",
            settings: carriedSettings(thumbs!),
            secrets: {},
            secretNotes: [],
            secretsMissing: ["gcsSecretKey"],
            secretsNotHeld: [],
          },
        ],
        skipped: [],
        secretKey: (name, field) => `${name}.${field}`,
        all: [photos!, thumbs!],
      });
    const yaml = report("yaml");
    expect(yaml).toMatch(new RegExp(`^  imgix_source\\.photos +photos +${TEAMJOURNEY.photos} +s3$`, "m"));
    expect(yaml).toContain("  photos: deployment.s3SecretKey → photos.s3SecretKey\n");
    expect(yaml).toContain("  photos: deployment.s3SecretKey: ${photos.s3SecretKey}\n");
    expect(yaml).toContain(
      "  cdn-thumbs-0: deployment.gcsSecretKey is required and the state does not hold it: set it (pulumi config set --secret cdn-thumbs-0.gcsSecretKey) and reference it",
    );
    expect(yaml).toContain(
      'Terraform\'s settings, to add to the declarations:\n  photos: waitForDeployment: false, deploymentTimeoutSeconds: 3600, customTimeouts (resource option): {"create":"2700s","update":"3600s"}',
    );
    expect(yaml).toContain("Next:\n  pulumi import --stack prod --file import.json --out <program file>");
    expect(yaml).not.toContain("tj-secret");
    expect(report("python")).toContain('photos: deployment.s3SecretKey: pulumi.Config().require_secret("photos.s3SecretKey")');
    expect(report("nodejs")).toContain('photos: deployment.s3SecretKey: new pulumi.Config().requireSecret("photos.s3SecretKey")');
    // What the first up will send, and how to send none.
    expect(yaml).toContain("The next `pulumi up` records it (one PATCH per Source");
    expect(yaml).toContain(
      "The first `pulumi up` sends one update per Source with secrets: 1 update: within the budget (60 updates per hour), no wait.\n" +
        "To send none, trust the state's secrets as what the server holds: run this import with --trust-state-secrets",
    );
    // Within what the stack's pacing allows at once: named in its own interval, not always "per hour".
    expect(report("yaml", false, pacingLimits({ limits: { updateSource: { limit: 10, intervalMs: 1000 } } }))).toContain(
      "1 update: within the budget (10 updates per second), no wait.",
    );
    expect(report("yaml", false, false)).toContain("1 update: pacing is off, all sent at once");
    const trusted = report("yaml", true);
    expect(trusted).toContain(
      "Trusted as what the server holds (--trust-state-secrets; recorded by Source id in assetdelivery:trustedSecrets",
    );
    expect(trusted).not.toContain("The first `pulumi up` sends");
    expect(trusted).not.toContain("The next `pulumi up` records it");
    expect(trusted).not.toContain("tj-secret");
  });
});
