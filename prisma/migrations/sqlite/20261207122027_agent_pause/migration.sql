-- AlterTable
ALTER TABLE "RoomMember" ADD COLUMN "pausedAt" DATETIME;
ALTER TABLE "RoomMember" ADD COLUMN "pausedById" TEXT;
