import type { Metadata } from "next";
import { Suspense } from "react";
import { InvolvementScreen } from "@/components/work/involvement-screen";

export const metadata: Metadata = { title: "Who drove this?" };

export default function InvolvementPage() {
  // What it shows is in the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense>
      <InvolvementScreen />
    </Suspense>
  );
}
