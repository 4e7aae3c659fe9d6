-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "peopleBurst" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "peopleMessagesPerMinute" INTEGER NOT NULL DEFAULT 60;

-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "rateLimitExempt" BOOLEAN NOT NULL DEFAULT false;
