// What a preview shows of a create (no earlier state) or an update, before any request: the
// declared values, and unknown what the server will decide: the deployment's status and date, the
// secure-URL token, the read-only flags, and the annotation when none is declared. An update that
// changes nothing the server decides keeps the state's values. (The dynamic host previews by
// itself; the native plugin asks this.)
import deepEqual from "fast-deep-equal";
import { attributePresentWhile, camelCase, isPlainObject, READ_ONLY_SOURCE_ATTRIBUTES } from "@asset-delivery/sdk";
import { READ_ONLY_ATTRIBUTE_NAMES, READ_ONLY_NAMES, type CamelDeployment, type UncheckedInputs } from "./codec";
import { comparableDeployment } from "./diff";
import { UNKNOWN } from "./unknowns";

const DECIDED_BY_THE_SERVER: readonly string[] = [...READ_ONLY_ATTRIBUTE_NAMES, ...READ_ONLY_NAMES];

export function previewOutputs(inputs: UncheckedInputs, state: UncheckedInputs = {}): UncheckedInputs {
  // Check's inputs, possibly with values not known yet: compared as they are.
  const deployment = (isPlainObject(inputs.deployment) ? inputs.deployment : {}) as CamelDeployment;
  const oldDeployment = isPlainObject(state.deployment) ? (state.deployment as CamelDeployment) : undefined;
  const redeploys =
    oldDeployment === undefined ||
    !deepEqual(comparableDeployment(oldDeployment, deployment), comparableDeployment(deployment, deployment)) ||
    inputs.enabled !== state.enabled;
  const decided = Object.fromEntries(DECIDED_BY_THE_SERVER.map((name) => [name, redeploys ? UNKNOWN : state[name]]));
  // An attribute present only while a deployment flag is on (the secure-URL token: the sdk's field
  // table says so) will be absent when the flag is declared off.
  for (const attribute of READ_ONLY_SOURCE_ATTRIBUTES) {
    const flag = attributePresentWhile(attribute);
    if (flag !== undefined && (deployment as Record<string, unknown>)[camelCase(flag)] === false) delete decided[camelCase(attribute)];
  }
  const annotation = deployment.annotation ?? (redeploys ? UNKNOWN : oldDeployment?.annotation);
  return { ...decided, ...inputs, deployment: { ...deployment, annotation } };
}
