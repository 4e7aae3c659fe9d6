-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Workspace" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "peopleTalkFreely" BOOLEAN NOT NULL DEFAULT true,
    "auditSeq" INTEGER NOT NULL DEFAULT 0,
    "auditHead" TEXT NOT NULL DEFAULT '',
    "agentMessagesPerMinute" INTEGER NOT NULL DEFAULT 60,
    "agentBurst" INTEGER NOT NULL DEFAULT 20,
    "peopleMessagesPerMinute" INTEGER NOT NULL DEFAULT 60,
    "peopleBurst" INTEGER NOT NULL DEFAULT 30,
    "loopGuardMessages" INTEGER NOT NULL DEFAULT 30,
    "loopGuardWindowSec" INTEGER NOT NULL DEFAULT 300
);
INSERT INTO "new_Workspace" ("agentBurst", "agentMessagesPerMinute", "auditHead", "auditSeq", "createdAt", "id", "loopGuardMessages", "loopGuardWindowSec", "name", "peopleTalkFreely") SELECT "agentBurst", "agentMessagesPerMinute", "auditHead", "auditSeq", "createdAt", "id", "loopGuardMessages", "loopGuardWindowSec", "name", "peopleTalkFreely" FROM "Workspace";
DROP TABLE "Workspace";
ALTER TABLE "new_Workspace" RENAME TO "Workspace";
CREATE TABLE "new_Participant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "description" TEXT NOT NULL DEFAULT '',
    "framework" TEXT,
    "capabilities" JSONB,
    "ownerId" TEXT,
    "consentPolicy" TEXT NOT NULL DEFAULT 'ask',
    "workStatus" TEXT NOT NULL DEFAULT '',
    "messagesPerMinute" INTEGER,
    "burst" INTEGER,
    "rateLimitExempt" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME,
    CONSTRAINT "Participant_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Participant_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Participant" ("burst", "capabilities", "consentPolicy", "createdAt", "description", "displayName", "framework", "handle", "id", "kind", "lastSeenAt", "messagesPerMinute", "ownerId", "status", "workStatus", "workspaceId") SELECT "burst", "capabilities", "consentPolicy", "createdAt", "description", "displayName", "framework", "handle", "id", "kind", "lastSeenAt", "messagesPerMinute", "ownerId", "status", "workStatus", "workspaceId" FROM "Participant";
DROP TABLE "Participant";
ALTER TABLE "new_Participant" RENAME TO "Participant";
CREATE INDEX "Participant_ownerId_idx" ON "Participant"("ownerId");
CREATE UNIQUE INDEX "Participant_workspaceId_handle_key" ON "Participant"("workspaceId", "handle");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
