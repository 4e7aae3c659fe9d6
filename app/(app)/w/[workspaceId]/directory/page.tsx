import type { Metadata } from "next";
import { DirectoryScreen } from "@/components/directory/directory-screen";

export const metadata: Metadata = { title: "Directory" };

export default function DirectoryPage() {
  return <DirectoryScreen />;
}
