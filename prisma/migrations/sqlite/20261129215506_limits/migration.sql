-- AlterTable
ALTER TABLE "Participant" ADD COLUMN "burst" INTEGER;
ALTER TABLE "Participant" ADD COLUMN "messagesPerMinute" INTEGER;

-- AlterTable
ALTER TABLE "Room" ADD COLUMN "agentsPausedAt" DATETIME;

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
    "loopGuardMessages" INTEGER NOT NULL DEFAULT 30,
    "loopGuardWindowSec" INTEGER NOT NULL DEFAULT 300
);
INSERT INTO "new_Workspace" ("auditHead", "auditSeq", "createdAt", "id", "name", "peopleTalkFreely") SELECT "auditHead", "auditSeq", "createdAt", "id", "name", "peopleTalkFreely" FROM "Workspace";
DROP TABLE "Workspace";
ALTER TABLE "new_Workspace" RENAME TO "Workspace";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
