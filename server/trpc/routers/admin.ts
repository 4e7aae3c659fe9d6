import { exportAuditInput, listAuditInput, setRoleInput } from "@switchboard/sdk/admin";
import * as auditLog from "../../services/governance/audit-log";
import * as members from "../../services/identity/members";
import { authedProcedure, router } from "../init";

export const adminRouter = router({
  members: authedProcedure.query(({ ctx }) => members.listMembers(ctx.actor)),
  setRole: authedProcedure.input(setRoleInput).mutation(({ ctx, input }) => members.setRole(ctx.actor, input)),
  audit: authedProcedure.input(listAuditInput).query(({ ctx, input }) => auditLog.listAudit(ctx.actor, input)),
  /** The actions and the named subjects the audit log can be filtered by. */
  auditFacets: authedProcedure.query(({ ctx }) => auditLog.auditFacets(ctx.actor)),
  exportAudit: authedProcedure.input(exportAuditInput).query(({ ctx, input }) => {
    const { format, ...filter } = input;
    return auditLog.exportAudit(ctx.actor, filter, format);
  }),
  verifyAudit: authedProcedure.query(({ ctx }) => auditLog.verifyWorkspaceChain(ctx.actor)),
});
