-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN "componentMap" JSONB;

-- CreateTable
CREATE TABLE "WorkTask" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL DEFAULT '',
    "key" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "parentId" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "roomId" TEXT,
    "threadRootId" TEXT,
    "bindingId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    CONSTRAINT "WorkTask_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WorkTask_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "WorkTask_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "WorkTask" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FileTouch" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "linesAdded" INTEGER,
    "linesRemoved" INTEGER,
    "commit" TEXT,
    "branch" TEXT,
    "sessionId" TEXT NOT NULL DEFAULT '',
    "taskId" TEXT,
    "roomId" TEXT,
    "threadRootId" TEXT,
    "bindingId" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "FileTouch_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "FileTouch_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WorkLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "title" TEXT,
    "sessionId" TEXT NOT NULL DEFAULT '',
    "taskId" TEXT,
    "roomId" TEXT,
    "threadRootId" TEXT,
    "bindingId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WorkLink_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WorkLink_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE SET NULL ON UPDATE CASCADE
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME,
    CONSTRAINT "Participant_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Participant_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Participant_waitingForId_fkey" FOREIGN KEY ("waitingForId") REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Participant" ("approvalActions", "approvalSpendUsd", "burst", "capabilities", "consentPolicy", "createdAt", "description", "displayName", "framework", "handle", "id", "kind", "lastSeenAt", "messagesPerMinute", "notifications", "ownerId", "rateLimitExempt", "status", "workStatus", "workspaceId") SELECT "approvalActions", "approvalSpendUsd", "burst", "capabilities", "consentPolicy", "createdAt", "description", "displayName", "framework", "handle", "id", "kind", "lastSeenAt", "messagesPerMinute", "notifications", "ownerId", "rateLimitExempt", "status", "workStatus", "workspaceId" FROM "Participant";
DROP TABLE "Participant";
ALTER TABLE "new_Participant" RENAME TO "Participant";
CREATE INDEX "Participant_ownerId_idx" ON "Participant"("ownerId");
CREATE INDEX "Participant_workUntil_idx" ON "Participant"("workUntil");
CREATE UNIQUE INDEX "Participant_workspaceId_handle_key" ON "Participant"("workspaceId", "handle");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "WorkTask_workspaceId_updatedAt_idx" ON "WorkTask"("workspaceId", "updatedAt");

-- CreateIndex
CREATE INDEX "WorkTask_roomId_updatedAt_idx" ON "WorkTask"("roomId", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "WorkTask_agentId_sessionId_key_key" ON "WorkTask"("agentId", "sessionId", "key");

-- CreateIndex
CREATE INDEX "FileTouch_workspaceId_at_idx" ON "FileTouch"("workspaceId", "at");

-- CreateIndex
CREATE INDEX "FileTouch_agentId_at_idx" ON "FileTouch"("agentId", "at");

-- CreateIndex
CREATE INDEX "FileTouch_roomId_at_idx" ON "FileTouch"("roomId", "at");

-- CreateIndex
CREATE INDEX "WorkLink_workspaceId_kind_value_idx" ON "WorkLink"("workspaceId", "kind", "value");

-- CreateIndex
CREATE UNIQUE INDEX "WorkLink_agentId_kind_value_sessionId_key" ON "WorkLink"("agentId", "kind", "value", "sessionId");
