import type { Metadata } from "next";
import { WorkScreen } from "@/components/work/work-screen";

export const metadata: Metadata = { title: "Work" };

export default function WorkPage() {
  return <WorkScreen />;
}
