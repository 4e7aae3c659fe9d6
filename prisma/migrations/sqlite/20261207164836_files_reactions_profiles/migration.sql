-- CreateTable
CREATE TABLE "StoredFile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "roomId" TEXT,
    "uploaderId" TEXT NOT NULL,
    "messageId" TEXT,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "storageKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" DATETIME,
    CONSTRAINT "StoredFile_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "StoredFile_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "StoredFile_uploaderId_fkey" FOREIGN KEY ("uploaderId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "StoredFile_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Reaction" (
    "messageId" TEXT NOT NULL,
    "participantId" TEXT NOT NULL,
    "emoji" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("messageId", "participantId", "emoji"),
    CONSTRAINT "Reaction_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Reaction_participantId_fkey" FOREIGN KEY ("participantId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable: columns added in place. Redefining "Message" (Prisma's way) would drop the search
-- index's triggers and renumber the rowids that "MessageSearch" points at.
ALTER TABLE "Participant" ADD COLUMN "statusEmoji" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Participant" ADD COLUMN "statusText" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Participant" ADD COLUMN "statusUntil" DATETIME;
ALTER TABLE "Participant" ADD COLUMN "avatarFileId" TEXT;
ALTER TABLE "Message" ADD COLUMN "pinnedAt" DATETIME;
ALTER TABLE "Message" ADD COLUMN "pinnedById" TEXT REFERENCES "Participant" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "Message_roomId_pinnedAt_idx" ON "Message"("roomId", "pinnedAt");

-- CreateIndex
CREATE INDEX "StoredFile_messageId_idx" ON "StoredFile"("messageId");

-- CreateIndex
CREATE INDEX "StoredFile_roomId_createdAt_idx" ON "StoredFile"("roomId", "createdAt");

-- CreateIndex
CREATE INDEX "StoredFile_uploaderId_createdAt_idx" ON "StoredFile"("uploaderId", "createdAt");

-- CreateIndex
CREATE INDEX "Reaction_messageId_createdAt_idx" ON "Reaction"("messageId", "createdAt");
