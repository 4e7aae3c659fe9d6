-- CreateTable
CREATE TABLE "RuntimeBinding" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "threadKey" TEXT NOT NULL DEFAULT '',
    "runtime" TEXT NOT NULL,
    "externalId" TEXT,
    "openTaskId" TEXT,
    "runner" TEXT,
    "host" TEXT,
    "workdir" TEXT,
    "config" JSONB,
    "status" TEXT NOT NULL DEFAULT 'active',
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "resumes" INTEGER NOT NULL DEFAULT 0,
    "resumeFailures" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "leaseHolder" TEXT,
    "leaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "closedAt" DATETIME,
    "closedById" TEXT,
    CONSTRAINT "RuntimeBinding_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RuntimeBinding_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RuntimeBinding_closedById_fkey" FOREIGN KEY ("closedById") REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RuntimeBinding_roomId_idx" ON "RuntimeBinding"("roomId");

-- CreateIndex
CREATE UNIQUE INDEX "RuntimeBinding_agentId_roomId_threadKey_runtime_key" ON "RuntimeBinding"("agentId", "roomId", "threadKey", "runtime");
