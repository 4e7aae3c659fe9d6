-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "agentBurst" INTEGER NOT NULL DEFAULT 20,
ADD COLUMN     "agentMessagesPerMinute" INTEGER NOT NULL DEFAULT 60,
ADD COLUMN     "loopGuardMessages" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "loopGuardWindowSec" INTEGER NOT NULL DEFAULT 300;

-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "burst" INTEGER,
ADD COLUMN     "messagesPerMinute" INTEGER;

-- AlterTable
ALTER TABLE "Room" ADD COLUMN     "agentsPausedAt" TIMESTAMP(3);
