// The schema's enums (prisma/schema.prisma) against the two things that depend on them: the order of
// their values, and the wire contract that presents them.
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as Wire from "@switchboard/sdk/contract";
import type { InviteLinkView } from "../../server/presenters/invitation";
import type { WorkspaceRole } from "../../server/policies";
import * as Schema from "../../server/generated/sqlite/enums";

describe("the schema's enums", () => {
  // PostgreSQL sorts an enum by its declared order, SQLite sorts the text: in alphabetical order the
  // two agree, so an ORDER BY on such a column (agents before people, say) is the same on both.
  it("list their values in alphabetical order", () => {
    const enums = Object.entries(Schema);
    expect(enums.length).toBeGreaterThan(10);
    for (const [name, values] of enums) {
      const listed = Object.values(values);
      expect(listed, name).toEqual([...listed].sort());
    }
  });

  // Checked by the type checker (`npx tsc --noEmit`): what is stored is exactly what is presented.
  it("hold the values the wire contract presents", () => {
    expectTypeOf<Schema.WorkspaceRole>().toEqualTypeOf<WorkspaceRole>();
    expectTypeOf<Schema.InviteRole>().toEqualTypeOf<InviteLinkView["role"]>();
    expectTypeOf<Schema.ParticipantKind>().toEqualTypeOf<Wire.ParticipantKind>();
    expectTypeOf<Schema.ParticipantStatus>().toEqualTypeOf<Wire.ParticipantView["status"]>();
    expectTypeOf<Schema.ConsentPolicy>().toEqualTypeOf<Wire.ConsentPolicy>();
    expectTypeOf<Schema.RoomKind>().toEqualTypeOf<Wire.RoomKind>();
    expectTypeOf<Schema.RoomVisibility>().toEqualTypeOf<Wire.RoomView["visibility"]>();
    expectTypeOf<Schema.RoomRole>().toEqualTypeOf<Wire.RoomMemberView["role"]>();
    expectTypeOf<Schema.DeliveryMode>().toEqualTypeOf<Wire.DeliveryMode>();
    expectTypeOf<Schema.MessageKind>().toEqualTypeOf<Wire.MessageView["kind"]>();
    expectTypeOf<Schema.ReceiptState>().toEqualTypeOf<Wire.ReceiptView["state"]>();
    expectTypeOf<Schema.ConnectionStatus>().toEqualTypeOf<Wire.ConnectionStatus>();
    expectTypeOf<Schema.CostSource>().toEqualTypeOf<Wire.UsageView["costSource"]>();
    expectTypeOf<Schema.BudgetSubject>().toEqualTypeOf<Wire.BudgetView["subjectType"]>();
    expectTypeOf<Schema.BudgetPeriod>().toEqualTypeOf<Wire.BudgetView["period"]>();
    expectTypeOf<Schema.BudgetUnit>().toEqualTypeOf<Wire.BudgetView["unit"]>();
    expectTypeOf<Schema.BudgetState>().toEqualTypeOf<Wire.BudgetView["state"]>();
    expectTypeOf<Schema.AccessTokenScope>().toEqualTypeOf<Wire.AccessTokenScope>();
    expectTypeOf<Schema.NotificationPreference>().toEqualTypeOf<Wire.NotificationPreference>();
  });
});
