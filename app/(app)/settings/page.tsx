import { redirect } from "next/navigation";

// A person's settings are one page so far: their access tokens.
export default function SettingsPage() {
  redirect("/settings/tokens");
}
