import { z } from "zod";
import * as auditLog from "../../services/governance/audit-log";
import * as members from "../../services/identity/members";
import { authedProcedure, router } from "../init";

const auditFilter = z.strictObject({
  action: z.string().trim().max(60).optional(),
  actorId: z.string().max(64).optional(),
  subjectId: z.string().max(64).optional(),
  from: z.date().optional(),
  to: z.date().optional(),
});

export const adminRouter = router({
  members: authedProcedure.query(({ ctx }) => members.listMembers(ctx.actor)),
  setRole: authedProcedure
    .input(z.strictObject({ participantId: z.string().min(1).max(64), role: z.enum(["admin", "member", "guest"]) }))
    .mutation(({ ctx, input }) => members.setRole(ctx.actor, input)),
  audit: authedProcedure
    .input(auditFilter.extend({ beforeSeq: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(500).default(100) }))
    .query(({ ctx, input }) => auditLog.listAudit(ctx.actor, input)),
  exportAudit: authedProcedure
    .input(auditFilter.extend({ format: z.enum(["csv", "json"]) }))
    .query(({ ctx, input }) => {
      const { format, ...filter } = input;
      return auditLog.exportAudit(ctx.actor, filter, format);
    }),
  verifyAudit: authedProcedure.query(({ ctx }) => auditLog.verifyWorkspaceChain(ctx.actor)),
});
