-- CreateIndex
CREATE INDEX "Member_accountId_createdAt_idx" ON "Member"("accountId", "createdAt");
