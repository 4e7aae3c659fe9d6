-- AlterTable
ALTER TABLE "Participant" ADD COLUMN "approvalActions" JSONB;

-- AlterTable
ALTER TABLE "Question" ADD COLUMN "gateAction" TEXT;
ALTER TABLE "Question" ADD COLUMN "gateKey" TEXT;
ALTER TABLE "Question" ADD COLUMN "gateUsedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Question_askerId_gateKey_idx" ON "Question"("askerId", "gateKey");
