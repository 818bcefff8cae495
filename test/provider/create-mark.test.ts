// The create mark (create-mark.ts): one per resource (for Pulumi, its URN: engine/creator.ts),
// carried at the end of the annotation, invisible to comparisons, and never pushing an annotation
// past the API's limit.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  annotationKeepingMark,
  annotationWithMark as withMark,
  createdInScope,
  createMark as markOf,
  withoutMark,
} from "../../provider/src/core/create-mark";
import { sourceResource } from "../support/api-documents";
import { pulumiCreator } from "../../provider/src/engine/creator";

const URN = "urn:pulumi:prod::site::pulumi-nodejs:dynamic/assetdelivery:Source::photos";
const createMark = (urn: string) => markOf(pulumiCreator(urn));
const annotationWithMark = (declared: string | undefined, urn: string) => withMark(declared, pulumiCreator(urn));

describe("the create mark", () => {
  it("is the same for a URN on every run, and another for another stack", () => {
    expect(createMark(URN)).toMatch(/^\[pulumi-create:[0-9a-f]{32}\]$/);
    // The mark every release has written, so that a Source an interrupted run of an earlier one left is recognised.
    expect(createMark(URN)).toBe(`[pulumi-create:${createHash("sha256").update(URN).digest("hex").slice(0, 32)}]`);
    expect(createMark(URN)).toBe(createMark(URN));
    expect(createMark(URN.replace("prod", "staging"))).not.toBe(createMark(URN));
  });

  it("names the resource when no annotation is declared, and follows a declared one", () => {
    expect(annotationWithMark(undefined, URN)).toBe(`Created by Pulumi for ${URN} ${createMark(URN)}`);
    expect(annotationWithMark("Managed by the web team", URN)).toBe(`Managed by the web team ${createMark(URN)}`);
  });

  it("never makes an annotation longer than the API's 1000 characters", () => {
    const long = "x".repeat(990);
    expect(annotationWithMark(long, URN)).toBe(long);
    const longUrn = `${URN}${"y".repeat(1000)}`;
    expect(annotationWithMark(undefined, longUrn)).toBe(`Created by Pulumi ${createMark(longUrn)}`);
  });

  it("is taken off an annotation for comparison, and nothing else is", () => {
    expect(withoutMark(`Managed by the web team ${createMark(URN)}`)).toBe("Managed by the web team");
    expect(withoutMark("Managed [pulumi-create:not-a-mark]")).toBe("Managed [pulumi-create:not-a-mark]");
    expect(withoutMark(`${createMark(URN)} in the middle`)).toBe(`${createMark(URN)} in the middle`);
  });

  it("lasts through a deployment update: the declared annotation with the live one's mark, else the live one; none when the live one has none", () => {
    const live = annotationWithMark(undefined, URN)!;
    expect(annotationKeepingMark(undefined, live)).toBe(live);
    expect(annotationKeepingMark("Managed by the web team", live)).toBe(`Managed by the web team ${createMark(URN)}`);
    expect(annotationKeepingMark("Managed by the web team", `Managed by the ops team ${createMark(URN)}`)).toBe(
      `Managed by the web team ${createMark(URN)}`,
    );
    expect(annotationKeepingMark(undefined, "New deployment created for Source by admin")).toBeUndefined();
    expect(annotationKeepingMark("Managed", "New deployment created for Source by admin")).toBe("Managed");
    const long = "x".repeat(1000);
    expect(annotationKeepingMark(long, live)).toBe(long); // no room for the mark: as declared
  });

  it("tells a Source created with the default annotation for a resource of the same stack", () => {
    const created = (annotation: string) => {
      const source = sourceResource();
      source.attributes.deployment.annotation = annotation;
      return source;
    };
    const photos = created(annotationWithMark(undefined, URN)!);
    expect(createdInScope(photos, pulumiCreator(URN.replace("photos", "videos")))).toBe(true);
    expect(createdInScope(photos, pulumiCreator(URN.replace("prod", "staging")))).toBe(false);
    expect(createdInScope(created(annotationWithMark("Managed by the web team", URN)!), pulumiCreator(URN))).toBe(false); // a digest only
  });
});
