-- DropIndex
DROP INDEX "UsageRecord_workspaceId_agentId_day_idx";

-- DropIndex
DROP INDEX "UsageRecord_workspaceId_ownerId_day_idx";

-- DropIndex
DROP INDEX "UsageRecord_workspaceId_roomId_day_idx";

-- DropIndex
DROP INDEX "UsageRecord_workspaceId_taskId_day_idx";

-- DropIndex
DROP INDEX "UsageRecord_workspaceId_model_day_idx";

-- CreateTable
CREATE TABLE "UsageRollup" (
    "workspaceId" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "span" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "week" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "inputTokens" BIGINT NOT NULL,
    "outputTokens" BIGINT NOT NULL,
    "cachedTokens" BIGINT NOT NULL,
    "costUsd" DOUBLE PRECISION NOT NULL,
    "unpricedCalls" INTEGER NOT NULL,
    "unpricedTokens" BIGINT NOT NULL,

    CONSTRAINT "UsageRollup_pkey" PRIMARY KEY ("workspaceId","grain","span","day","agentId","ownerId","roomId","taskId","model")
);

-- CreateIndex
CREATE INDEX "UsageRollup_workspaceId_grain_span_agentId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "agentId", "day");

-- CreateIndex
CREATE INDEX "UsageRollup_workspaceId_grain_span_ownerId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "ownerId", "day");

-- CreateIndex
CREATE INDEX "UsageRollup_workspaceId_grain_span_roomId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "roomId", "day");

-- CreateIndex
CREATE INDEX "UsageRollup_workspaceId_grain_span_taskId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "taskId", "day");

-- CreateIndex
CREATE INDEX "UsageRollup_workspaceId_grain_span_model_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "model", "day");

-- CreateIndex
CREATE INDEX "Message_roomId_createdAt_kind_deletedAt_authorId_idx" ON "Message"("roomId", "createdAt", "kind", "deletedAt", "authorId");

-- Backfill: sum the usage records already stored into their rollup rows, as addToRollups in
-- server/services/usage-rollups.ts does for each new record (this is rollupBackfillSql("postgresql")).
INSERT INTO "UsageRollup" ("workspaceId", "grain", "span", "day", "week", "month", "agentId", "ownerId", "roomId", "taskId", "model", "calls", "inputTokens", "outputTokens", "cachedTokens", "costUsd", "unpricedCalls", "unpricedTokens")
SELECT "workspaceId", 'model' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "model"
UNION ALL
SELECT "workspaceId", 'agent' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", '' AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "agentId", "ownerId"
UNION ALL
SELECT "workspaceId", 'agent' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", '' AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "agentId", "ownerId"
UNION ALL
SELECT "workspaceId", 'room' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", COALESCE("roomId", '') AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "roomId"
UNION ALL
SELECT "workspaceId", 'room' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  '' AS "agentId", '' AS "ownerId", COALESCE("roomId", '') AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "roomId"
UNION ALL
SELECT "workspaceId", 'task' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "roomId", COALESCE("taskId", '') AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "taskId"
UNION ALL
SELECT "workspaceId", 'task' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "roomId", COALESCE("taskId", '') AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "taskId"
UNION ALL
SELECT "workspaceId", 'agent_model' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", '' AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "agentId", "ownerId", "model"
UNION ALL
SELECT "workspaceId", 'agent_model' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", '' AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "agentId", "ownerId", "model"
UNION ALL
SELECT "workspaceId", 'room_model' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", COALESCE("roomId", '') AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "roomId", "model"
UNION ALL
SELECT "workspaceId", 'room_model' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  '' AS "agentId", '' AS "ownerId", COALESCE("roomId", '') AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "roomId", "model"
UNION ALL
SELECT "workspaceId", 'task_model' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "roomId", COALESCE("taskId", '') AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "taskId", "model"
UNION ALL
SELECT "workspaceId", 'task_model' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "roomId", COALESCE("taskId", '') AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "taskId", "model"
UNION ALL
SELECT "workspaceId", 'all' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", COALESCE("roomId", '') AS "roomId", COALESCE("taskId", '') AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "agentId", "ownerId", "roomId", "taskId", "model";
