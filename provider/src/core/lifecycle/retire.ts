// `delete`: the API cannot delete a Source. It is retired instead (`enabled: false`, so it stops
// serving), and its subdomains stay reserved to it; declaring them again adopts it.
import { NotFoundError, printable } from "@asset-delivery/sdk";
import type { Session } from "../session";

export async function retireSource(session: Session, id: string): Promise<void> {
  let retired;
  try {
    retired = await session.client.sources.update(id, { enabled: false });
  } catch (error) {
    if (error instanceof NotFoundError) return; // already gone
    throw error;
  }
  session.reads.remember(retired);
  const { name, deployment } = retired.attributes;
  const subdomains = deployment.service_subdomains.map((s) => `"${printable(s)}"`).join(", ");
  await session.warn(
    `Source ${printable(id)} ("${printable(name)}") was retired, not deleted: the Management API cannot delete Sources. ` +
      `It is now disabled (enabled: false) and stops serving, but its service subdomains ${subdomains} stay reserved to it. ` +
      `A Source declared again with one of them adopts this one.`,
  );
}
