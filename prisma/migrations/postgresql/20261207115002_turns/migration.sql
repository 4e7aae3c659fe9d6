-- AlterTable
ALTER TABLE "Room" ADD COLUMN     "membersMayStopTurns" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "Turn" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "threadRootId" TEXT,
    "runtime" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL DEFAULT 'running',
    "error" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),
    "stopRequestedAt" TIMESTAMP(3),
    "stopRequestedById" TEXT,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costMicros" INTEGER NOT NULL DEFAULT 0,
    "stepCount" INTEGER NOT NULL DEFAULT 0,
    "droppedSteps" INTEGER NOT NULL DEFAULT 0,
    "bytes" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Turn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TurnStep" (
    "turnId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'done',
    "items" JSONB,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TurnStep_pkey" PRIMARY KEY ("turnId","key")
);

-- CreateIndex
CREATE INDEX "Turn_roomId_startedAt_idx" ON "Turn"("roomId", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Turn_agentId_messageId_key" ON "Turn"("agentId", "messageId");

-- CreateIndex
CREATE INDEX "TurnStep_turnId_position_idx" ON "TurnStep"("turnId", "position");

-- AddForeignKey
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_stopRequestedById_fkey" FOREIGN KEY ("stopRequestedById") REFERENCES "Participant"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TurnStep" ADD CONSTRAINT "TurnStep_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;
