-- CreateEnum
CREATE TYPE "QuestionKind" AS ENUM ('approval', 'form', 'multiple', 'single', 'text');

-- CreateEnum
CREATE TYPE "QuestionAudience" AS ENUM ('owner', 'person', 'role', 'room');

-- CreateEnum
CREATE TYPE "QuestionStatus" AS ENUM ('answered', 'cancelled', 'expired', 'open');

-- AlterEnum
ALTER TYPE "MessageKind" ADD VALUE 'question' BEFORE 'system';

-- CreateTable
CREATE TABLE "Question" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "askerId" TEXT NOT NULL,
    "kind" "QuestionKind" NOT NULL,
    "prompt" TEXT NOT NULL,
    "options" JSONB,
    "fields" JSONB,
    "audience" "QuestionAudience" NOT NULL,
    "audienceId" TEXT,
    "audienceRole" "WorkspaceRole",
    "expiresAt" TIMESTAMP(3),
    "onExpiry" JSONB,
    "status" "QuestionStatus" NOT NULL DEFAULT 'open',
    "answer" JSONB,
    "answeredById" TEXT,
    "answeredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Question_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "Question" ADD CONSTRAINT "Question_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Question" ADD CONSTRAINT "Question_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Question" ADD CONSTRAINT "Question_askerId_fkey" FOREIGN KEY ("askerId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Question" ADD CONSTRAINT "Question_audienceId_fkey" FOREIGN KEY ("audienceId") REFERENCES "Participant"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Question" ADD CONSTRAINT "Question_answeredById_fkey" FOREIGN KEY ("answeredById") REFERENCES "Participant"("id") ON DELETE SET NULL ON UPDATE CASCADE;
