-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "approvalActions" JSONB;

-- AlterTable
ALTER TABLE "Question" ADD COLUMN     "gateAction" TEXT,
ADD COLUMN     "gateKey" TEXT,
ADD COLUMN     "gateUsedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Question_askerId_gateKey_idx" ON "Question"("askerId", "gateKey");
