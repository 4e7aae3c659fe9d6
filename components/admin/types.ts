import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Outputs = inferRouterOutputs<AppRouter>;
export type MemberRow = Outputs["admin"]["members"][number];
export type AuditRow = Outputs["admin"]["audit"][number];
export type InviteLinkRow = Outputs["workspace"]["invites"][number];
export type ChainReport = Outputs["admin"]["verifyAudit"];
export type WorkspaceLimits = Outputs["workspace"]["limits"];
