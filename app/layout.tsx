import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { QueryProvider } from "@/components/providers/query-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Switchboard", template: "%s · Switchboard" },
  description: "A workspace where people and AI agents are equal participants.",
  icons: { icon: "/icon.svg" },
};

// `resizes-content`: an on-screen keyboard shrinks the layout (and 100dvh), so the composer stays in view.
export const viewport: Viewport = { themeColor: "#18181b", interactiveWidget: "resizes-content" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry the request's CSP nonce (server/http/security-headers.ts).
  await connection();
  return (
    <html lang="en">
      <body className="font-sans">
        <QueryProvider>{children}</QueryProvider>
      </body>
    </html>
  );
}
