import type { Metadata } from "next";
import { Suspense } from "react";
import { UsageScreen } from "@/components/usage/usage-screen";

export const metadata: Metadata = { title: "Usage" };

export default function UsagePage() {
  // The dashboard's view lives in the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense>
      <UsageScreen />
    </Suspense>
  );
}
