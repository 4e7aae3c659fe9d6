// "A room's `lastSeq` is its version" (services/messaging/room-version.ts), held to the source. The send
// path decides a batch on one read (`batchFacts`, `agentRun` in the message store) and stores it only if
// the room's `lastSeq` has not moved. This test reads the columns those queries read from their SQL,
// finds every Prisma write in server/ (nested relation writes included) and raw SQL write, and fails
// when one writes a column a batch is decided on without moving the version (`bumpRoomVersion` in the
// same function), unless the column is held another way (below) or the writer is excused (EXCUSED).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
/** The message store's SQL, each statement written once for both databases. */
const STORE = ["server/services/message-store/statements.ts"];

/**
 * How each column a batch reads is kept true at its write:
 * - version: its writers move `lastSeq` in the same transaction (`bumpRoomVersion`), so a batch decided
 *   before the write is decided again;
 * - held: `storeIfUnchanged` checks it itself, on the row it writes (a room not archived, agent authors
 *   still active, held until commit) or by a unique key (a retry's `(authorId, clientMsgId)`);
 * - read: taken as of the read, spanning every room of a participant or workspace: a message rate is
 *   counted outside any transaction, so a batch read before a change of limits commits counts under
 *   the limits it read (it comes before the change), and names are what the stored message is presented with;
 * - fixed: written only when the row is created, which no batch can have read (a room or participant
 *   is new, so no room's batch found it).
 */
const HOW: Record<string, "version" | "held" | "read" | "fixed"> = {
  "Room.id": "fixed",
  "Room.workspaceId": "fixed",
  "Room.kind": "version",
  "Room.visibility": "version",
  "Room.lastSeq": "version",
  "Room.agentsPausedAt": "version", // only the send path's own store writes it, moving lastSeq
  "Room.archivedAt": "held",
  "Workspace.id": "fixed",
  "Workspace.agentMessagesPerMinute": "read",
  "Workspace.agentBurst": "read",
  "Workspace.peopleMessagesPerMinute": "read",
  "Workspace.peopleBurst": "read",
  "Workspace.loopGuardMessages": "read",
  "Workspace.loopGuardWindowSec": "read",
  "RoomMember.roomId": "version",
  "RoomMember.participantId": "version",
  "RoomMember.role": "version",
  "RoomMember.deliveryMode": "version",
  "RoomMember.pausedAt": "version",
  "Participant.id": "fixed",
  "Participant.kind": "fixed",
  "Participant.handle": "read",
  "Participant.displayName": "read",
  "Participant.status": "held",
  "Participant.messagesPerMinute": "read",
  "Participant.burst": "read",
  "Participant.rateLimitExempt": "read",
  "Message.id": "held",
  "Message.authorId": "version", // the loop guard's run: a room's messages, each stored with a seq
  "Message.clientMsgId": "held",
  "Message.roomId": "version",
  "Message.seq": "version",
  "Message.kind": "version",
  "Message.createdAt": "version",
};

/** Rows created new: no batch has read them (a room's batch finds none of them before they exist). */
const CREATED_UNREAD = new Set(["Room", "Participant", "Workspace"]);

/** Writers of versioned facts that do not move the version, and why. Each entry must still match a writer. */
const EXCUSED: Record<string, string> = {
  "server/services/messaging/messages.ts appendToRoom": "it is the version: it moves lastSeq and stores the message with it",
  "server/services/membership/direct.ts openDirectRoom": "a new conversation's members, created with its room in one transaction",
  "server/seed.ts seedDemo": "the demo data, written before the server serves",
  "server/seed.ts seedSecondCompany": "the demo's second company, written before the server serves",
};

const WRITES = new Set(["create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return rel === "server/generated" ? [] : sourceFiles(rel);
    return e.name.endsWith(".ts") ? [rel] : [];
  });
}

const parse = (file: string) => ts.createSourceFile(file, readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** Each database's fragments of the store's SQL (`d.storedUnder(…)`), by name: the tables a fragment reads. */
const DIALECTS = ["server/services/message-store/sqlite.ts", "server/services/message-store/postgres.ts"];

/** The text of each SQL template in `file` (between `from` and `to`), and the templates given a name (`const member = sql`…`, `storedUnder: (…) => sql`…`). */
function templatesOf(file: string, from?: string, to?: string) {
  const source = parse(file);
  const start = from ? source.text.indexOf(from) : 0;
  const end = to ? source.text.indexOf(to) : source.text.length;
  const all: string[] = [];
  const named = new Map<string, string>();
  walk(source, (n) => {
    if (!ts.isTaggedTemplateExpression(n) || !["sql", "Prisma.sql"].includes(n.tag.getText()) || n.pos < start || n.end > end) return;
    const text = n.template.getText().slice(1, -1);
    all.push(text);
    let owner: ts.Node = n.parent;
    if (ts.isArrowFunction(owner)) owner = owner.parent;
    if (ts.isVariableDeclaration(owner) || ts.isPropertyAssignment(owner)) named.set(owner.name.getText(), text);
  });
  return { all, named };
}

/**
 * The columns the facts queries read, as "Model.column": each SQL template from the first fragment they
 * use to the reader that runs them, with the fragments it takes put in (`${member}`, and each database's
 * `${d.storedUnder(…)}`), read with its own aliases (`table("Room")} r`).
 */
function factColumns(): Set<string> {
  const columns = new Set<string>();
  const store = STORE.map((file) => templatesOf(file, "const member", "export function factsReader"));
  for (const dialect of DIALECTS.map((file) => templatesOf(file).named)) {
    for (const { all, named } of store) {
      for (const template of all) {
        const sql = template
          .replace(/\$\{d\.(\w+)\((?:[^{}]|\{[^{}]*\})*\)\}/g, (whole, name: string) => dialect.get(name) ?? whole)
          .replace(/\$\{(\w+)\}/g, (whole, name: string) => named.get(name) ?? whole);
        const aliases = new Map([...sql.matchAll(/table\("(\w+)"\)\}\s+(\w+)\b/g)].map((m) => [m[2], m[1]]));
        for (const [, alias, column] of sql.matchAll(/\b(\w+)\."(\w+)"/g)) {
          const model = aliases.get(alias);
          if (model) columns.add(`${model}.${column}`);
        }
      }
    }
  }
  return columns;
}

/** Each model's relation fields and the model each leads to, from the schema. */
function relations(): Map<string, Map<string, string>> {
  const schema = readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8");
  const models = [...schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
  const names = new Set(models.map((m) => m[1]));
  return new Map(
    models.map(([, name, body]) => [
      name,
      new Map([...body.matchAll(/^\s+(\w+)\s+(\w+)(\[\])?\??/gm)].filter(([, , type]) => names.has(type)).map(([, field, type]) => [field, type])),
    ]),
  );
}

interface Write {
  writer: string;
  /** "Model.column" written, "Model.*" for a row created or deleted (or columns not knowable here). */
  columns: string[];
  created: string[];
}

const property = (o: ts.ObjectLiteralExpression, name: string) =>
  o.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === name)?.initializer;

/** What a write's `data` writes to `model`, following nested relation writes. */
function written(model: string, data: ts.Expression | undefined, rel: Map<string, Map<string, string>>, out: Write, creating: boolean): void {
  if (creating) out.created.push(model);
  // A new row's own columns are its creation's (`created`); what it writes through relations is not.
  const own = (column: string) => (creating ? undefined : out.columns.push(`${model}.${column}`));
  if (!data || !ts.isObjectLiteralExpression(data)) {
    own("*"); // built elsewhere: any column
    return;
  }
  for (const p of data.properties) {
    if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) {
      own("*"); // a spread
      continue;
    }
    const field = p.name.getText();
    const related = rel.get(model)?.get(field);
    if (!related) {
      own(field);
      continue;
    }
    const nested = ts.isPropertyAssignment(p) ? p.initializer : undefined;
    if (!nested || !ts.isObjectLiteralExpression(nested)) {
      out.columns.push(`${related}.*`);
      continue;
    }
    for (const op of nested.properties) {
      const name = op.name?.getText();
      const value = ts.isPropertyAssignment(op) ? op.initializer : undefined;
      if (name === "create") written(related, value, rel, out, true);
      else if (name === "createMany") written(related, value && ts.isObjectLiteralExpression(value) ? property(value, "data") : undefined, rel, out, true);
      else if (name !== "connect") out.columns.push(`${related}.*`); // update, upsert, delete, set, disconnect...
    }
  }
}

/** The named function a node is in: its declaration, or the variable or property an arrow is assigned to. */
function enclosing(node: ts.Node): ts.Node & { name?: ts.Node } {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) return n;
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && (ts.isVariableDeclaration(n.parent) || ts.isPropertyAssignment(n.parent))) return n.parent;
  }
  return node.getSourceFile();
}

function callsBump(fn: ts.Node): boolean {
  let found = false;
  walk(fn, (n) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "bumpRoomVersion") found = true;
  });
  return found;
}

const accessorModel = (accessor: string, models: Set<string>) => {
  const model = accessor[0].toUpperCase() + accessor.slice(1);
  return models.has(model) ? model : null;
};

/** Every Prisma write in server/ outside the message store, with the writer it is in. */
function prismaWrites(): { write: Write; fn: ts.Node }[] {
  const rel = relations();
  const models = new Set(rel.keys());
  const found: { write: Write; fn: ts.Node }[] = [];
  for (const file of sourceFiles("server").filter((f) => !f.startsWith("server/services/message-store/"))) {
    walk(parse(file), (n) => {
      if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression) || !ts.isPropertyAccessExpression(n.expression.expression)) return;
      const method = n.expression.name.text;
      const model = accessorModel(n.expression.expression.name.text, models);
      if (!model || !WRITES.has(method)) return;
      const fn = enclosing(n);
      const write: Write = { writer: `${file} ${fn.name?.getText() ?? "(top level)"}`, columns: [], created: [] };
      const args = n.arguments[0] && ts.isObjectLiteralExpression(n.arguments[0]) ? n.arguments[0] : undefined;
      if (method.startsWith("delete")) write.columns.push(`${model}.*`);
      else if (method === "upsert") {
        written(model, args && property(args, "create"), rel, write, true);
        written(model, args && property(args, "update"), rel, write, false);
      } else written(model, args && property(args, "data"), rel, write, method.startsWith("create"));
      found.push({ write, fn });
    });
  }
  return found;
}

/** The versioned fact columns a write touches (a created or deleted row: all of its model's). */
function versionedFacts(write: Write, facts: Set<string>): string[] {
  const touched = new Set<string>();
  for (const model of write.created) if (!CREATED_UNREAD.has(model)) for (const f of facts) if (f.startsWith(`${model}.`)) touched.add(f);
  for (const column of write.columns) {
    const [model, name] = column.split(".");
    for (const f of facts) if (f === column || (name === "*" && f.startsWith(`${model}.`))) touched.add(f);
  }
  return [...touched].filter((f) => HOW[f] === "version").sort();
}

describe("a room's lastSeq is its version", () => {
  const facts = factColumns();
  const writes = prismaWrites();

  it("reads the facts from the store's queries, and says how each is kept true at the write", () => {
    expect(facts.has("RoomMember.role") && facts.has("Participant.status") && facts.has("Workspace.agentBurst")).toBe(true);
    // A column a batch newly reads needs a line in HOW (and, if "version", writers that bump); one it no longer reads, none.
    expect([...facts].sort()).toEqual(Object.keys(HOW).sort());
  });

  it("holds the facts marked held in the store's own condition, written once for both databases", () => {
    for (const file of STORE) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      expect(text, file).toContain(`"lastSeq" = \${w.afterSeq} AND "archivedAt" IS NULL`);
      expect(text, file).toMatch(/UPDATE \$\{table\("Participant"\)\} SET "lastSeenAt" = .* AND "status" = 'active'/);
    }
    expect(readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8")).toContain("@@unique([authorId, clientMsgId])");
  });

  it("finds the writes it checks, nested ones included", () => {
    const writers = writes.filter(({ write }) => versionedFacts(write, facts).length > 0).map(({ write }) => write.writer);
    expect(writers).toEqual(
      expect.arrayContaining([
        "server/services/membership/members.ts addMembers",
        "server/services/rooms/rooms.ts leaveRoom",
        "server/services/membership/members.ts setDeliveryMode",
      ]),
    );
  });

  it("every write of a versioned fact moves the version in the same function", () => {
    const missing: string[] = [];
    const excused = new Set<string>();
    for (const { write, fn } of writes) {
      const touched = versionedFacts(write, facts);
      if (touched.length === 0 || callsBump(fn)) continue;
      if (EXCUSED[write.writer]) excused.add(write.writer);
      else missing.push(`${write.writer} writes ${touched.join(", ")}: call bumpRoomVersion in its transaction (services/messaging/room-version.ts)`);
    }
    expect(missing).toEqual([]);
    expect(Object.keys(EXCUSED).filter((w) => !excused.has(w))).toEqual([]); // an excuse nobody needs goes
  });

  it("no raw SQL outside the message store writes a table the facts are read from", () => {
    const tables = new Set([...facts].map((f) => f.split(".")[0]));
    const offending: string[] = [];
    for (const file of sourceFiles("server").filter((f) => !f.startsWith("server/services/message-store/"))) {
      walk(parse(file), (n) => {
        if (!ts.isTemplateLiteral(n) && !ts.isStringLiteral(n)) return;
        const text = n.getText();
        if (!/\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\b/i.test(text)) return;
        for (const t of tables) if (new RegExp(`"${t}"`).test(text)) offending.push(`${file}: ${text.slice(0, 80)}`);
      });
    }
    expect(offending).toEqual([]);
  });
});
