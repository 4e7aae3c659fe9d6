-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "a2aServed" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "causeId" TEXT;

-- CreateTable
CREATE TABLE "A2aContext" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "callerId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "rootMessageId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "A2aContext_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "A2aTask" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "contextId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "callerId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "task" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "A2aTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "A2aTask_roomId_state_idx" ON "A2aTask"("roomId", "state");

-- CreateIndex
CREATE INDEX "A2aTask_callerId_agentId_updatedAt_idx" ON "A2aTask"("callerId", "agentId", "updatedAt");

-- CreateIndex
CREATE INDEX "Message_causeId_idx" ON "Message"("causeId");

-- AddForeignKey
ALTER TABLE "A2aContext" ADD CONSTRAINT "A2aContext_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "A2aContext" ADD CONSTRAINT "A2aContext_callerId_fkey" FOREIGN KEY ("callerId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "A2aContext" ADD CONSTRAINT "A2aContext_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "A2aTask" ADD CONSTRAINT "A2aTask_contextId_fkey" FOREIGN KEY ("contextId") REFERENCES "A2aContext"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "A2aTask" ADD CONSTRAINT "A2aTask_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "A2aTask" ADD CONSTRAINT "A2aTask_callerId_fkey" FOREIGN KEY ("callerId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "A2aTask" ADD CONSTRAINT "A2aTask_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;
