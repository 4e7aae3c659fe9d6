// "/" opens #general (or the first room the viewer is in).
import { redirect } from "next/navigation";
import { CenteredState } from "@/components/rooms/room-screen";
import { getViewer } from "../_lib/viewer";

export const dynamic = "force-dynamic";

export default async function Home() {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin");
  const rooms = await viewer.api.rooms.mine();
  const first = rooms.find((r) => r.kind === "channel" && r.name === "general") ?? rooms.find((r) => r.kind === "channel") ?? rooms[0];
  if (first) redirect(`/r/${first.id}`);
  return <CenteredState title="You're not in any rooms yet" body="Browse the channels in the sidebar, or start a direct message." />;
}
