-- CreateTable
CREATE TABLE "ModelPrice" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputPerMTok" DOUBLE PRECISION NOT NULL,
    "outputPerMTok" DOUBLE PRECISION NOT NULL,
    "cachedPerMTok" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ModelPrice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageRecord" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "reportId" TEXT NOT NULL,
    "ownerId" TEXT,
    "roomId" TEXT,
    "messageId" TEXT,
    "taskId" TEXT,
    "model" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "cachedTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION NOT NULL,
    "costSource" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "day" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsageRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Budget" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "unit" TEXT NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "periodKey" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL DEFAULT 'ok',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Budget_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ModelPrice_workspaceId_model_key" ON "ModelPrice"("workspaceId", "model");

-- CreateIndex
CREATE INDEX "UsageRecord_workspaceId_day_idx" ON "UsageRecord"("workspaceId", "day");

-- CreateIndex
CREATE INDEX "UsageRecord_workspaceId_agentId_day_idx" ON "UsageRecord"("workspaceId", "agentId", "day");

-- CreateIndex
CREATE INDEX "UsageRecord_workspaceId_ownerId_day_idx" ON "UsageRecord"("workspaceId", "ownerId", "day");

-- CreateIndex
CREATE INDEX "UsageRecord_workspaceId_roomId_day_idx" ON "UsageRecord"("workspaceId", "roomId", "day");

-- CreateIndex
CREATE INDEX "UsageRecord_workspaceId_taskId_day_idx" ON "UsageRecord"("workspaceId", "taskId", "day");

-- CreateIndex
CREATE INDEX "UsageRecord_workspaceId_model_day_idx" ON "UsageRecord"("workspaceId", "model", "day");

-- CreateIndex
CREATE UNIQUE INDEX "UsageRecord_agentId_reportId_key" ON "UsageRecord"("agentId", "reportId");

-- CreateIndex
CREATE INDEX "Budget_workspaceId_idx" ON "Budget"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "Budget_subjectType_subjectId_period_unit_key" ON "Budget"("subjectType", "subjectId", "period", "unit");
