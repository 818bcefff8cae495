// The smoke test's program folder: one SmokeFile from the stack's config.
import * as pulumi from "@pulumi/pulumi";
import { SmokeFile } from "./smoke-file";

const config = new pulumi.Config();
const file = new SmokeFile("smoke-file", { path: config.require("path"), content: config.require("content") });
export const filePath = file.id;
