// The path states written before the `./runtime` export name (`@asset-delivery/provider/dist/runtime`):
// a file of its own, so that every resolver finds it, node10's included; the module is the dynamic shell's.
export * from "./dynamic/runtime";
