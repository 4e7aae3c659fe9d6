-- CreateEnum
CREATE TYPE "WorkState" AS ENUM ('blocked', 'idle', 'waiting', 'working');

-- CreateEnum
CREATE TYPE "TaskStatus" AS ENUM ('completed', 'dropped', 'in_progress', 'pending');

-- CreateEnum
CREATE TYPE "FileOperation" AS ENUM ('create', 'delete', 'edit', 'read', 'run');

-- CreateEnum
CREATE TYPE "WorkLinkKind" AS ENUM ('branch', 'commit', 'pull_request');

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "componentMap" JSONB;

-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "waitingForId" TEXT,
ADD COLUMN     "workState" "WorkState" NOT NULL DEFAULT 'idle',
ADD COLUMN     "workStateAt" TIMESTAMP(3),
ADD COLUMN     "workUntil" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "WorkTask" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL DEFAULT '',
    "key" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "status" "TaskStatus" NOT NULL DEFAULT 'pending',
    "parentId" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "roomId" TEXT,
    "threadRootId" TEXT,
    "bindingId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "WorkTask_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileTouch" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "operation" "FileOperation" NOT NULL,
    "linesAdded" INTEGER,
    "linesRemoved" INTEGER,
    "commit" TEXT,
    "branch" TEXT,
    "sessionId" TEXT NOT NULL DEFAULT '',
    "taskId" TEXT,
    "roomId" TEXT,
    "threadRootId" TEXT,
    "bindingId" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileTouch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkLink" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "kind" "WorkLinkKind" NOT NULL,
    "value" TEXT NOT NULL,
    "title" TEXT,
    "sessionId" TEXT NOT NULL DEFAULT '',
    "taskId" TEXT,
    "roomId" TEXT,
    "threadRootId" TEXT,
    "bindingId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WorkTask_workspaceId_updatedAt_idx" ON "WorkTask"("workspaceId", "updatedAt");

-- CreateIndex
CREATE INDEX "WorkTask_roomId_updatedAt_idx" ON "WorkTask"("roomId", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "WorkTask_agentId_sessionId_key_key" ON "WorkTask"("agentId", "sessionId", "key");

-- CreateIndex
CREATE INDEX "FileTouch_workspaceId_at_idx" ON "FileTouch"("workspaceId", "at");

-- CreateIndex
CREATE INDEX "FileTouch_agentId_at_idx" ON "FileTouch"("agentId", "at");

-- CreateIndex
CREATE INDEX "FileTouch_roomId_at_idx" ON "FileTouch"("roomId", "at");

-- CreateIndex
CREATE INDEX "WorkLink_workspaceId_kind_value_idx" ON "WorkLink"("workspaceId", "kind", "value");

-- CreateIndex
CREATE UNIQUE INDEX "WorkLink_agentId_kind_value_sessionId_key" ON "WorkLink"("agentId", "kind", "value", "sessionId");

-- CreateIndex
CREATE INDEX "Participant_workUntil_idx" ON "Participant"("workUntil");

-- AddForeignKey
ALTER TABLE "Participant" ADD CONSTRAINT "Participant_waitingForId_fkey" FOREIGN KEY ("waitingForId") REFERENCES "Participant"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkTask" ADD CONSTRAINT "WorkTask_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkTask" ADD CONSTRAINT "WorkTask_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkTask" ADD CONSTRAINT "WorkTask_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "WorkTask"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileTouch" ADD CONSTRAINT "FileTouch_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileTouch" ADD CONSTRAINT "FileTouch_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkLink" ADD CONSTRAINT "WorkLink_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkLink" ADD CONSTRAINT "WorkLink_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE SET NULL ON UPDATE CASCADE;
