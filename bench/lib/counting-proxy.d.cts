// Types of counting-proxy.cjs, for the TypeScript benchmark.
export interface CountingProxy {
  url: string;
  counts: { requests: number; byStatus: Record<number, number>; byRequest: Record<string, number> };
  /** Forwards to another origin from now on. */
  retarget(origin: string): void;
  reset(): void;
  close(): Promise<void>;
}
export function startCountingProxy(target: string): Promise<CountingProxy>;
