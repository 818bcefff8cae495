// The gRPC face of the native provider: Pulumi's ResourceProvider service from the generated
// bindings in @pulumi/pulumi/proto, each call decoded (wire.ts), handed to NativeProvider, and its
// answer encoded. Chosen over @pulumi/pulumi's `provider.main`, which throws Configure's variables
// away, never sets supportsPreview, drops detailedDiff, hands secrets over wrapped and fails on an
// undefined output: each of those is a request of the protocol we answer here directly.
import type * as grpcTypes from "@grpc/grpc-js";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { configFromRequest } from "./config";
import { grpcRuntime, providerProtos } from "../engine/grpc";
import { serveResourceProvider } from "./listen";
import { CancelledError, type NativeProvider, PartialSourceError } from "./provider";
import { packageSchema } from "./schema";
import { decodeStruct, encodeStruct } from "./wire";

const grpc = grpcRuntime();
const protos = providerProtos();

type Handler<Req, Res> = (call: grpcTypes.ServerUnaryCall<Req, Res>, callback: grpcTypes.sendUnaryData<Res>) => void;

/** A handler from an async function; a thrown error becomes the call's error, its message free of secrets (the sdk's errors never carry the key). */
function unary<Req, Res>(handle: (request: Req) => Promise<Res> | Res): Handler<Req, Res> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => handle(call.request))
      .then(
        (response) => callback(null, response),
        (error: unknown) => callback(grpcError(error)),
      );
  };
}

function grpcError(error: unknown): Partial<grpcTypes.StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof CancelledError) return { code: grpc.status.CANCELLED, details: message };
  if (!(error instanceof PartialSourceError)) return { code: grpc.status.UNKNOWN, details: message };
  // Created (or updated) but not settled: the engine records the Source with these outputs.
  const detail = new protos.provider.ErrorResourceInitFailed();
  detail.setId(error.id);
  detail.setProperties(encodeStruct(error.outputs.values, error.outputs.secrets));
  detail.setReasonsList([message]);
  const any = new protos.any.Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new protos.status.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(message);
  status.addDetails(any);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

function checkResponse(inputs: ReturnType<NativeProvider["check"]>["inputs"], failures: { property: string; reason: string }[]) {
  const response = new protos.provider.CheckResponse();
  response.setInputs(encodeStruct(inputs.values, inputs.secrets));
  response.setFailuresList(
    failures.map((failure) => new protos.provider.CheckFailure().setProperty(failure.property).setReason(failure.reason)),
  );
  return response;
}

const DIFF_KINDS = {
  add: protos.provider.PropertyDiff.Kind.ADD,
  delete: protos.provider.PropertyDiff.Kind.DELETE,
  update: protos.provider.PropertyDiff.Kind.UPDATE,
} as const;

/** The service implementation around one provider instance (the engine starts a process per provider). */
export function resourceProviderService(provider: NativeProvider, version: string): grpcTypes.UntypedServiceImplementation {
  // Built when first asked, not at start: a plugin process never asked for it builds none.
  let schema: string | undefined;
  const pb = protos.provider;
  const empty = () => new protos.empty.Empty();
  return {
    getPluginInfo: unary(() => new protos.plugin.PluginInfo().setVersion(version)),
    getSchema: unary((request: providerPb.GetSchemaRequest) => {
      if (request.getVersion() > 0 && request.getSubpackageName()) throw new Error(`no subpackage ${request.getSubpackageName()}`);
      schema ??= JSON.stringify(packageSchema(version));
      return new pb.GetSchemaResponse().setSchema(schema);
    }),
    checkConfig: unary((request: providerPb.CheckRequest) => {
      const { inputs, failures } = provider.checkConfig(decodeStruct(request.getNews()));
      return checkResponse(inputs, failures);
    }),
    diffConfig: unary((request: providerPb.DiffRequest) => {
      const { changes, diffs } = provider.diffConfig(decodeStruct(request.getOlds()), decodeStruct(request.getNews()));
      return new pb.DiffResponse()
        .setChanges(changes ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE)
        .setDiffsList(diffs);
    }),
    configure: unary(async (request: providerPb.ConfigureRequest) => {
      const variables = new Map(request.getVariablesMap().toArray());
      await provider.configure(configFromRequest(decodeStruct(request.getArgs()).values, variables));
      return new pb.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true).setAcceptresources(false).setAcceptoutputs(false);
    }),
    check: unary(async (request: providerPb.CheckRequest) => {
      const isNew = (request.getOlds()?.getFieldsMap().getLength() ?? 0) === 0;
      const { inputs, failures } = provider.check(request.getType(), decodeStruct(request.getNews()), isNew);
      // A valid declaration's host names, against who holds them (one listing of the account a run).
      const held =
        failures.length > 0
          ? []
          : await provider.checkHandOvers(inputs, isNew ? undefined : decodeStruct(request.getOlds()), request.getUrn());
      return checkResponse(inputs, [...failures, ...held]);
    }),
    diff: unary((request: providerPb.DiffRequest) => {
      const { changes, replaces, detailedDiff } = provider.diff(
        request.getId(),
        decodeStruct(request.getOlds()),
        decodeStruct(request.getNews()),
        request.getUrn(),
      );
      const response = new pb.DiffResponse()
        .setChanges(changes ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE)
        .setReplacesList(replaces)
        .setDiffsList([...new Set([...detailedDiff.keys()].map((path) => path.split(/[.[]/)[0]!))])
        .setHasdetaileddiff(true)
        .setDeletebeforereplace(false);
      for (const [path, kind] of detailedDiff) {
        const replace = (replaces as readonly string[]).includes(path);
        const diffKind = replace ? pb.PropertyDiff.Kind.UPDATE_REPLACE : DIFF_KINDS[kind];
        response.getDetaileddiffMap().set(path, new pb.PropertyDiff().setKind(diffKind).setInputdiff(true));
      }
      return response;
    }),
    create: unary(async (request: providerPb.CreateRequest) => {
      const { id, outputs } = await provider.create(decodeStruct(request.getProperties()), {
        preview: request.getPreview(),
        timeoutSeconds: request.getTimeout(),
        urn: request.getUrn(),
      });
      return new pb.CreateResponse().setId(id).setProperties(encodeStruct(outputs.values, outputs.secrets));
    }),
    read: unary(async (request: providerPb.ReadRequest) => {
      const { id, outputs, inputs } = await provider.read(
        request.getId(),
        decodeStruct(request.getProperties()),
        decodeStruct(request.getInputs()),
      );
      const response = new pb.ReadResponse().setId(id);
      if (id === "") return response; // gone: the engine drops it
      // Absent: the engine's own, unchanged and already marked, go back as they came (provider.ts).
      return response
        .setProperties(outputs ? encodeStruct(outputs.values, outputs.secrets) : request.getProperties())
        .setInputs(inputs ? encodeStruct(inputs.values, inputs.secrets) : request.getInputs());
    }),
    update: unary(async (request: providerPb.UpdateRequest) => {
      const outputs = await provider.update(request.getId(), decodeStruct(request.getOlds()), decodeStruct(request.getNews()), {
        preview: request.getPreview(),
        timeoutSeconds: request.getTimeout(),
      });
      return new pb.UpdateResponse().setProperties(encodeStruct(outputs.values, outputs.secrets));
    }),
    delete: unary(async (request: providerPb.DeleteRequest) => {
      await provider.delete(request.getId(), request.getUrn());
      return empty();
    }),
    invoke: unary(async (request: providerPb.InvokeRequest) => {
      const result = await provider.invoke(request.getTok(), decodeStruct(request.getArgs()).values);
      return new pb.InvokeResponse().setReturn(encodeStruct(result.values, result.secrets));
    }),
    cancel: unary(() => {
      provider.cancelWaits();
      return empty();
    }),
    attach: unary(() => empty()),
  };
}

/** Serves the provider on a loopback port and prints the port, as the engine expects of a plugin. */
export function serve(version: string, provider: NativeProvider): Promise<grpcTypes.Server> {
  return serveResourceProvider(resourceProviderService(provider, version));
}
