-- AlterTable
ALTER TABLE "RoomMember" ADD COLUMN     "pausedAt" TIMESTAMP(3),
ADD COLUMN     "pausedById" TEXT;
