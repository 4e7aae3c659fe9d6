import type { Metadata } from "next";
import { Suspense } from "react";
import { AdminScreen } from "@/components/admin/admin-screen";

export const metadata: Metadata = { title: "Admin" };

export default function AdminPage() {
  // A connection link's code arrives in the URL (useSearchParams), which needs a Suspense boundary.
  return (
    <Suspense>
      <AdminScreen />
    </Suspense>
  );
}
