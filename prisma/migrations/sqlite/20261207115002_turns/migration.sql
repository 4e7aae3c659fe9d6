-- CreateTable
CREATE TABLE "Turn" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "threadRootId" TEXT,
    "runtime" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL DEFAULT 'running',
    "error" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" DATETIME,
    "stopRequestedAt" DATETIME,
    "stopRequestedById" TEXT,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costMicros" INTEGER NOT NULL DEFAULT 0,
    "stepCount" INTEGER NOT NULL DEFAULT 0,
    "droppedSteps" INTEGER NOT NULL DEFAULT 0,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Turn_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Turn_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Turn_stopRequestedById_fkey" FOREIGN KEY ("stopRequestedById") REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TurnStep" (
    "turnId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'done',
    "items" JSONB,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("turnId", "key"),
    CONSTRAINT "TurnStep_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Room" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "visibility" TEXT NOT NULL,
    "name" TEXT,
    "topic" TEXT NOT NULL DEFAULT '',
    "directKey" TEXT,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "agentsPausedAt" DATETIME,
    "membersMayStopTurns" BOOLEAN NOT NULL DEFAULT false,
    "createdById" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" DATETIME,
    CONSTRAINT "Room_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Room_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Room" ("agentsPausedAt", "archivedAt", "createdAt", "createdById", "directKey", "id", "kind", "lastSeq", "name", "topic", "visibility", "workspaceId") SELECT "agentsPausedAt", "archivedAt", "createdAt", "createdById", "directKey", "id", "kind", "lastSeq", "name", "topic", "visibility", "workspaceId" FROM "Room";
DROP TABLE "Room";
ALTER TABLE "new_Room" RENAME TO "Room";
CREATE UNIQUE INDEX "Room_workspaceId_name_key" ON "Room"("workspaceId", "name");
CREATE UNIQUE INDEX "Room_workspaceId_directKey_key" ON "Room"("workspaceId", "directKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Turn_roomId_startedAt_idx" ON "Turn"("roomId", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Turn_agentId_messageId_key" ON "Turn"("agentId", "messageId");

-- CreateIndex
CREATE INDEX "TurnStep_turnId_position_idx" ON "TurnStep"("turnId", "position");
