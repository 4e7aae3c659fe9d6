import type { Metadata } from "next";
import { AccessTokensScreen } from "@/components/settings/access-tokens-screen";

export const metadata: Metadata = { title: "Access tokens" };

export default function AccessTokensPage() {
  return <AccessTokensScreen />;
}
