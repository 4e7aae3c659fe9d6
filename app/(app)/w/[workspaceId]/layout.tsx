// Every signed-in page: checked on the server, then the client shell (socket, sidebar) around it.
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/rooms/app-shell";
import { getViewer } from "../_lib/viewer";

export const dynamic = "force-dynamic";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin");
  const { workspace, me, can } = (await viewer.api.workspace.me())!;
  return <AppShell viewer={{ workspace, me, can }}>{children}</AppShell>;
}
