-- CreateTable
CREATE TABLE "Question" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "askerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "options" JSONB,
    "fields" JSONB,
    "audience" TEXT NOT NULL,
    "audienceId" TEXT,
    "audienceRole" TEXT,
    "expiresAt" DATETIME,
    "onExpiry" JSONB,
    "status" TEXT NOT NULL DEFAULT 'open',
    "answer" JSONB,
    "answeredById" TEXT,
    "answeredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Question_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Question_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Question_askerId_fkey" FOREIGN KEY ("askerId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Question_audienceId_fkey" FOREIGN KEY ("audienceId") REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Question_answeredById_fkey" FOREIGN KEY ("answeredById") REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Question_messageId_key" ON "Question"("messageId");

-- CreateIndex
CREATE INDEX "Question_workspaceId_status_createdAt_idx" ON "Question"("workspaceId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Question_audienceId_status_idx" ON "Question"("audienceId", "status");

-- CreateIndex
CREATE INDEX "Question_roomId_status_idx" ON "Question"("roomId", "status");

-- CreateIndex
CREATE INDEX "Question_askerId_status_idx" ON "Question"("askerId", "status");

-- CreateIndex
CREATE INDEX "Question_status_expiresAt_idx" ON "Question"("status", "expiresAt");
