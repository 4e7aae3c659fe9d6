-- AlterTable
ALTER TABLE "Message" ADD COLUMN "causeId" TEXT;

-- CreateTable
CREATE TABLE "A2aContext" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "callerId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "rootMessageId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "A2aContext_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "A2aContext_callerId_fkey" FOREIGN KEY ("callerId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "A2aContext_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "A2aTask" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "contextId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "callerId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "task" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "A2aTask_contextId_fkey" FOREIGN KEY ("contextId") REFERENCES "A2aContext" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "A2aTask_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "A2aTask_callerId_fkey" FOREIGN KEY ("callerId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "A2aTask_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
    "workState" TEXT NOT NULL DEFAULT 'idle',
    "workStatus" TEXT NOT NULL DEFAULT '',
    "waitingForId" TEXT,
    "workStateAt" DATETIME,
    "workUntil" DATETIME,
    "messagesPerMinute" INTEGER,
    "burst" INTEGER,
    "rateLimitExempt" BOOLEAN NOT NULL DEFAULT false,
    "approvalActions" JSONB,
    "approvalSpendUsd" REAL,
    "notifications" TEXT NOT NULL DEFAULT 'mentions',
    "a2aServed" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME,
    CONSTRAINT "Participant_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Participant_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Participant_waitingForId_fkey" FOREIGN KEY ("waitingForId") REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Participant" ("approvalActions", "approvalSpendUsd", "burst", "capabilities", "consentPolicy", "createdAt", "description", "displayName", "framework", "handle", "id", "kind", "lastSeenAt", "messagesPerMinute", "notifications", "ownerId", "rateLimitExempt", "status", "waitingForId", "workState", "workStateAt", "workStatus", "workUntil", "workspaceId") SELECT "approvalActions", "approvalSpendUsd", "burst", "capabilities", "consentPolicy", "createdAt", "description", "displayName", "framework", "handle", "id", "kind", "lastSeenAt", "messagesPerMinute", "notifications", "ownerId", "rateLimitExempt", "status", "waitingForId", "workState", "workStateAt", "workStatus", "workUntil", "workspaceId" FROM "Participant";
DROP TABLE "Participant";
ALTER TABLE "new_Participant" RENAME TO "Participant";
CREATE INDEX "Participant_ownerId_idx" ON "Participant"("ownerId");
CREATE INDEX "Participant_workUntil_idx" ON "Participant"("workUntil");
CREATE UNIQUE INDEX "Participant_workspaceId_handle_key" ON "Participant"("workspaceId", "handle");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "A2aTask_roomId_state_idx" ON "A2aTask"("roomId", "state");

-- CreateIndex
CREATE INDEX "A2aTask_callerId_agentId_updatedAt_idx" ON "A2aTask"("callerId", "agentId", "updatedAt");

-- CreateIndex
CREATE INDEX "Message_causeId_idx" ON "Message"("causeId");
