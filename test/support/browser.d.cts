// Types of browser.cjs.
import type { BrowserContext } from "playwright-core";

/** Debian's Chromium, or ASSET_DELIVERY_CHROMIUM. */
export const CHROMIUM_PATH: string;

export interface TestBrowser {
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** A persistent context on a fresh user-data-dir. */
export function launchBrowser(options?: { viewport?: { width: number; height: number } }): Promise<TestBrowser>;
