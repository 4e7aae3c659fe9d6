import type { Metadata } from "next";
import { Suspense } from "react";
import { TimelineScreen } from "@/components/work/timeline-screen";

export const metadata: Metadata = { title: "Timeline" };

export default function TimelinePage() {
  // What it shows is in the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense>
      <TimelineScreen />
    </Suspense>
  );
}
