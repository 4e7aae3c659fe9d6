import { describe, expect, it } from "vitest";
import { csvCell, csvFile } from "../../server/presenters/csv";

describe("CSV cells", () => {
  it("neutralises text a spreadsheet would run as a formula, including after a tab or carriage return", () => {
    for (const lead of ["=", "+", "-", "@", "\t", "\r"]) expect(csvCell(`${lead}SUM(A1)`)).toBe(`"'${lead}SUM(A1)"`);
    expect(csvCell("plain text")).toBe('"plain text"');
  });
  it("leaves numbers as numbers, writes objects as JSON, nothing as empty, and doubles quotes", () => {
    expect(csvCell(-1.5)).toBe('"-1.5"');
    expect(csvCell(0)).toBe('"0"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
    expect(csvCell({ a: "b" })).toBe('"{""a"":""b""}"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  });
  it("writes a header and one line per row", () => {
    expect(
      csvFile(
        ["name", "cost"],
        [
          ["=x", 2],
          ["y", -3],
        ],
      ),
    ).toBe('name,cost\n"\'=x","2"\n"y","-3"\n');
  });
});
