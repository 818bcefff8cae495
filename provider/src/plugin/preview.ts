// What a preview shows of a create (no earlier state) or an update, before any request: the
// declared values, and unknown what the server will decide: the deployment's status and date, the
// secure-URL token, the read-only flags, and the annotation when none is declared. An update that
// changes nothing the server decides keeps the state's values. The native plugin's alone: the
// dynamic host previews by itself. In the core's shape (the API's names, as a state: the read-only
// flags in the deployment; the core's unknown), renamed by the plugin's edge as a state is.
import deepEqual from "fast-deep-equal";
import { attributePresentWhile, isPlainObject, READ_ONLY_DEPLOYMENT_FIELDS, READ_ONLY_SOURCE_ATTRIBUTES } from "@asset-delivery/sdk";
import { comparableDeployment, type UncheckedInputs, UNKNOWN } from "../core";

type Deployment = Record<string, unknown> & { type: string; annotation?: string };

export function previewOutputs(inputs: UncheckedInputs, state: UncheckedInputs = {}): UncheckedInputs {
  // Check's inputs, possibly with values not known yet: compared as they are.
  const deployment = (isPlainObject(inputs.deployment) ? inputs.deployment : {}) as Deployment;
  const oldDeployment = isPlainObject(state.deployment) ? (state.deployment as Deployment) : undefined;
  const redeploys =
    oldDeployment === undefined ||
    !deepEqual(comparableDeployment(oldDeployment, deployment), comparableDeployment(deployment, deployment)) ||
    inputs.enabled !== state.enabled;
  const decided = Object.fromEntries(READ_ONLY_SOURCE_ATTRIBUTES.map((name) => [name, redeploys ? UNKNOWN : state[name]]));
  const decidedFields = Object.fromEntries(
    [...READ_ONLY_DEPLOYMENT_FIELDS].map((name) => [name, redeploys ? UNKNOWN : oldDeployment?.[name]]),
  );
  // An attribute present only while a deployment flag is on (the secure-URL token: the sdk's field
  // table says so) will be absent when the flag is declared off.
  for (const attribute of READ_ONLY_SOURCE_ATTRIBUTES) {
    const flag = attributePresentWhile(attribute);
    if (flag !== undefined && deployment[flag] === false) delete decided[attribute];
  }
  const annotation = deployment.annotation ?? (redeploys ? UNKNOWN : oldDeployment?.annotation);
  return { ...decided, ...inputs, deployment: { ...decidedFields, ...deployment, annotation } };
}
