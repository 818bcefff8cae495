// What a lifecycle step (create, read, update, delete) works with: the provider object's
// connection to the API, and where its warnings go.
import type { Connection } from "./connection";
import type { Warn } from "./engine-log";

export type Session = Connection & { warn: Warn };
