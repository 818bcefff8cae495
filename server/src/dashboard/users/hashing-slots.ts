// A bound on password hashes running at once. scrypt runs on libuv's thread pool (4 threads by
// default), which every file, zlib and DNS call of the server shares: a flood of sign-ins must not
// occupy all of it. A request that finds every slot taken is answered 429 at once, never queued.
export const MAX_CONCURRENT_PASSWORD_HASHES = 2;

export type HashingSlots = ReturnType<typeof createHashingSlots>;

export function createHashingSlots(max = MAX_CONCURRENT_PASSWORD_HASHES) {
  let busy = 0;
  return {
    /** A slot's release function, or undefined when all are busy. Call the release exactly once. */
    tryAcquire(): (() => void) | undefined {
      if (busy >= max) return undefined;
      busy++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        busy--;
      };
    },
  };
}
