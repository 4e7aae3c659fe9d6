-- CreateEnum
CREATE TYPE "NotificationPreference" AS ENUM ('all', 'mentions', 'none');

-- CreateEnum
CREATE TYPE "NotificationKind" AS ENUM ('mention', 'message', 'question');

-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "notifications" "NotificationPreference" NOT NULL DEFAULT 'mentions';

-- CreateTable
CREATE TABLE "Notification" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "recipientId" TEXT NOT NULL,
    "kind" "NotificationKind" NOT NULL,
    "roomId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "excerpt" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimId" TEXT,
    "claimedAt" TIMESTAMP(3),
    "emailedAt" TIMESTAMP(3),
    "readAt" TIMESTAMP(3),

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Notification_emailedAt_createdAt_idx" ON "Notification"("emailedAt", "createdAt");

-- CreateIndex
CREATE INDEX "Notification_recipientId_emailedAt_idx" ON "Notification"("recipientId", "emailedAt");

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_recipientId_fkey" FOREIGN KEY ("recipientId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
