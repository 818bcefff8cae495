// Where the core's messages go: functions its shell passes in (both shells pass the engine's log,
// engine/engine-log.ts); the core never knows where they end up.

/** Where the core's warnings go. */
export type Warn = (message: string) => Promise<void>;
/** Where the core's progress messages go. */
export type Info = (message: string) => Promise<void>;
