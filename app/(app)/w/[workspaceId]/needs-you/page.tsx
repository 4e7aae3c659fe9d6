import type { Metadata } from "next";
import { NeedsYouScreen } from "@/components/questions/needs-you-screen";

export const metadata: Metadata = { title: "Needs you" };

export default function NeedsYouPage() {
  return <NeedsYouScreen />;
}
