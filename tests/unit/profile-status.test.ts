// The profile status's rules that the browser and the server share (sdk/profiles.ts): what counts as
// an emoji, and when "clear after" ends; and how the server presents a status that ran out.
import { describe, expect, it } from "vitest";
import { setProfileStatusInput, statusUntilFor } from "@switchboard/sdk/profiles";
import { presentStatus } from "../../server/presenters/participant";

describe("profile status", () => {
  it.each(["🌴", "🗓️", "👩🏽‍💻", "🇫🇷", "👨‍👩‍👧‍👦", ""])("takes %s as an emoji", (statusEmoji) => {
    expect(setProfileStatusInput.safeParse({ statusEmoji }).success).toBe(true);
  });
  it.each(["ok", "1", "#", ":palm_tree:", "🌴 away"])("refuses %s as an emoji", (statusEmoji) => {
    expect(setProfileStatusInput.safeParse({ statusEmoji }).success).toBe(false);
  });

  it("ends 'clear after' in the local day and week", () => {
    const wednesday = new Date(2026, 11, 9, 15, 20); // a Wednesday afternoon, local time
    expect(statusUntilFor("30m", wednesday)).toEqual(new Date(2026, 11, 9, 15, 50));
    expect(statusUntilFor("1h", wednesday)).toEqual(new Date(2026, 11, 9, 16, 20));
    expect(statusUntilFor("today", wednesday)).toEqual(new Date(2026, 11, 10, 0, 0));
    expect(statusUntilFor("week", wednesday)).toEqual(new Date(2026, 11, 14, 0, 0)); // the end of Sunday
    expect(statusUntilFor("week", new Date(2026, 11, 13, 9, 0))).toEqual(new Date(2026, 11, 14, 0, 0)); // on Sunday: tonight
    expect(statusUntilFor("never", wednesday)).toBeNull();
  });

  it("presents a status past its time as none", () => {
    const now = new Date("2026-12-07T12:00:00Z");
    const row = { statusEmoji: "🌴", statusText: "Away", statusUntil: new Date("2026-12-07T11:59:59Z") };
    expect(presentStatus(row, now)).toEqual({ statusEmoji: "", statusText: "", statusUntil: null });
    expect(presentStatus({ ...row, statusUntil: new Date("2026-12-07T12:30:00Z") }, now)).toEqual({
      statusEmoji: "🌴",
      statusText: "Away",
      statusUntil: "2026-12-07T12:30:00.000Z",
    });
    expect(presentStatus({ ...row, statusUntil: null }, now).statusText).toBe("Away");
  });
});
