// What Pulumi serializes into the state for every Source: an object whose methods `require` the
// installed provider at run time. Nothing else is captured (no client, no credential, no copied
// module), so the state stays small and `destroy` runs today's code. Keep these functions free of
// references to anything outside them: the serializer would copy whatever they reach.
import type * as pulumi from "@pulumi/pulumi";

export const serializedProvider: pulumi.dynamic.ResourceProvider = {
  configure: (request) => require("@asset-delivery/provider/dist/runtime").sourceProvider.configure(request),
  check: (olds, news) => require("@asset-delivery/provider/dist/runtime").sourceProvider.check(olds, news),
  diff: (id, olds, news) => require("@asset-delivery/provider/dist/runtime").sourceProvider.diff(id, olds, news),
  create: (inputs) => require("@asset-delivery/provider/dist/runtime").sourceProvider.create(inputs),
  read: (id, props) => require("@asset-delivery/provider/dist/runtime").sourceProvider.read(id, props),
  update: (id, olds, news) => require("@asset-delivery/provider/dist/runtime").sourceProvider.update(id, olds, news),
  delete: (id, props) => require("@asset-delivery/provider/dist/runtime").sourceProvider.delete(id, props),
};
