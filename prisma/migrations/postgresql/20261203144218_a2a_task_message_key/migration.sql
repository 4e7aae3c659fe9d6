-- AlterTable
ALTER TABLE "A2aTask" ADD COLUMN     "messageKey" TEXT,
ADD COLUMN     "requestHash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "A2aTask_callerId_agentId_messageKey_key" ON "A2aTask"("callerId", "agentId", "messageKey");
