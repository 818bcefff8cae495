// End-to-end test program: declares the Sources given in the stack configuration, so that each
// step of a test changes what is declared through `pulumi config` alone.
//   sources       name -> SourceArgs (plain; may hold write-only values in plain text on purpose)
//   secretFields  name -> deployment fields whose values come from `secretValues`
//   plainFields   name -> deployment fields whose values come from `secretValues` unmarked, as a
//                 careless program would pass them (the resource must still keep them secret)
//   secretValues  (secret) name -> field -> value
//   nameFromIdOf  name -> the name of a Source declared before it, whose id this one's name is made
//                 of: a value not known during the preview of that Source's creation
//   dependsOn     name -> names of Sources declared before it that it depends on (registered after them)
import * as pulumi from "@pulumi/pulumi";
import { Source, type SourceArgs } from "@asset-delivery/provider";

const config = new pulumi.Config();
const declared = config.requireObject<Record<string, SourceArgs>>("sources");
const secretFields = config.getObject<Record<string, string[]>>("secretFields") ?? {};
const plainFields = config.getObject<Record<string, string[]>>("plainFields") ?? {};
const secretValues = config.getSecretObject<Record<string, Record<string, string>>>("secretValues");
const nameFromIdOf = config.getObject<Record<string, string>>("nameFromIdOf") ?? {};
const dependsOn = config.getObject<Record<string, string[]>>("dependsOn") ?? {};

const valueOf = (name: string, field: string) => secretValues!.apply((all) => all[name]![field]!);

const byName = new Map<string, Source>();
const sources = Object.entries(declared).map(([name, args]) => {
  const secrets = Object.fromEntries((secretFields[name] ?? []).map((field) => [field, valueOf(name, field)]));
  const plain = Object.fromEntries((plainFields[name] ?? []).map((field) => [field, pulumi.unsecret(valueOf(name, field))]));
  const namedAfter = nameFromIdOf[name] === undefined ? undefined : byName.get(nameFromIdOf[name]);
  const sourceName = namedAfter ? pulumi.interpolate`${args.name} ${namedAfter.id}` : args.name;
  const after = (dependsOn[name] ?? []).map((other) => byName.get(other)!);
  const source = new Source(
    name,
    { ...args, name: sourceName, deployment: { ...args.deployment, ...secrets, ...plain } },
    { dependsOn: after },
  );
  byName.set(name, source);
  return source;
});

export const ids = Object.fromEntries(sources.map((source, i) => [Object.keys(declared)[i]!, source.id]));
export const statuses = Object.fromEntries(sources.map((source, i) => [Object.keys(declared)[i]!, source.deploymentStatus]));
export const passwordSet = Object.fromEntries(sources.map((source, i) => [Object.keys(declared)[i]!, source.passwordSet]));
