// The run's declared changes (the engine's diffs of updates), one per Source id, each with how it
// is sent and what of it was sent. The engine shows a change at its diff and again at its Update,
// with the same olds and news as values (a process serving several operations may show a later
// change of the same Source: that one replaces it). They are compared as values, not as text: the
// engine's Update may hand back the same object with its keys in another order, and a change sent
// by another write must not be sent again.
import deepEqual from "fast-deep-equal";
import type { ChangeFacts } from "./plan";

/** How a declared change is sent: its own PATCHes, and its release-only PATCH when it can have one. */
export interface ChangeSender<Sent> {
  change: () => Promise<Sent>;
  releaseFirst?: () => Promise<void>;
}

export interface Declared<Sent> {
  facts: ChangeFacts & { id: string };
  /** What identifies the change beside its Source (the olds and news it was declared with), compared as values. */
  values: unknown;
  sender: ChangeSender<Sent>;
  sent?: Promise<Sent>;
  releasedFirst?: Promise<void>;
}

export class ChangeRegistry<Sent> {
  private readonly changes = new Map<string, Declared<Sent>>();

  /** Kept once by Source id: the same change declared again keeps what was sent of it; another replaces it. */
  declare(facts: ChangeFacts & { id: string }, sender: ChangeSender<Sent>, values: unknown): void {
    const known = this.changes.get(facts.id);
    if (known && deepEqual(known.values, values)) return;
    this.changes.set(facts.id, { facts, sender, values });
  }

  /** The Source's change is not coming (it is being replaced): no plan counts on it to release a name. */
  withdraw(id: string): void {
    const known = this.changes.get(id);
    if (known && !known.sent && !known.releasedFirst) this.changes.delete(id);
  }

  get(id: string): Declared<Sent> | undefined {
    return this.changes.get(id);
  }

  facts(): ChangeFacts[] {
    return [...this.changes.values()].map((declared) => declared.facts);
  }
}
