-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "requesterId" TEXT;

-- AlterTable
ALTER TABLE "UsageRecord" ADD COLUMN     "requesterId" TEXT;

-- AlterTable
ALTER TABLE "UsageRollup" DROP CONSTRAINT "UsageRollup_pkey",
ADD COLUMN     "requesterId" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "UsageRollup_pkey" PRIMARY KEY ("workspaceId", "grain", "span", "day", "agentId", "ownerId", "requesterId", "roomId", "taskId", "model");

-- CreateIndex
CREATE INDEX "MessageReceipt_participantId_state_updatedAt_idx" ON "MessageReceipt"("participantId", "state", "updatedAt");

-- CreateIndex
CREATE INDEX "UsageRollup_workspaceId_grain_span_requesterId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "requesterId", "day");

-- Requesters of what is already stored: a person's message serves that person (agents' earlier
-- messages name no cause, so they stay without one), and a usage report the requester of the message
-- it names.
UPDATE "Message" SET "requesterId" = "authorId" WHERE "authorId" IN (SELECT "id" FROM "Participant" WHERE "kind" = 'human');
UPDATE "UsageRecord" SET "requesterId" = (SELECT m."requesterId" FROM "Message" m WHERE m."id" = "UsageRecord"."messageId") WHERE "messageId" IS NOT NULL;

-- The rollups again, from the records, with the requester grain (services/usage-rollups.ts rollupBackfillSql).
DELETE FROM "UsageRollup";
INSERT INTO "UsageRollup" ("workspaceId", "grain", "span", "day", "week", "month", "agentId", "ownerId", "requesterId", "roomId", "taskId", "model", "calls", "inputTokens", "outputTokens", "cachedTokens", "costUsd", "unpricedCalls", "unpricedTokens")
SELECT "workspaceId", 'model' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", '' AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "model"
UNION ALL
SELECT "workspaceId", 'agent' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", '' AS "requesterId", '' AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "agentId", "ownerId"
UNION ALL
SELECT "workspaceId", 'agent' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", '' AS "requesterId", '' AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "agentId", "ownerId"
UNION ALL
SELECT "workspaceId", 'requester' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", COALESCE("requesterId", '') AS "requesterId", '' AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "requesterId"
UNION ALL
SELECT "workspaceId", 'requester' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  '' AS "agentId", '' AS "ownerId", COALESCE("requesterId", '') AS "requesterId", '' AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "requesterId"
UNION ALL
SELECT "workspaceId", 'room' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", COALESCE("roomId", '') AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "roomId"
UNION ALL
SELECT "workspaceId", 'room' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", COALESCE("roomId", '') AS "roomId", '' AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "roomId"
UNION ALL
SELECT "workspaceId", 'task' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", '' AS "roomId", COALESCE("taskId", '') AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "taskId"
UNION ALL
SELECT "workspaceId", 'task' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", '' AS "roomId", COALESCE("taskId", '') AS "taskId", '' AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "taskId"
UNION ALL
SELECT "workspaceId", 'agent_model' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", '' AS "requesterId", '' AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "agentId", "ownerId", "model"
UNION ALL
SELECT "workspaceId", 'agent_model' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", '' AS "requesterId", '' AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "agentId", "ownerId", "model"
UNION ALL
SELECT "workspaceId", 'room_model' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", COALESCE("roomId", '') AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "roomId", "model"
UNION ALL
SELECT "workspaceId", 'room_model' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", COALESCE("roomId", '') AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "roomId", "model"
UNION ALL
SELECT "workspaceId", 'task_model' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", '' AS "roomId", COALESCE("taskId", '') AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "taskId", "model"
UNION ALL
SELECT "workspaceId", 'task_model' AS "grain", 'month' AS "span", "month" || '-01' AS "day", '' AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", '' AS "roomId", COALESCE("taskId", '') AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "month", "taskId", "model"
UNION ALL
SELECT "workspaceId", 'all' AS "grain", 'day' AS "span", "day" AS "day", to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD') AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", COALESCE("requesterId", '') AS "requesterId", COALESCE("roomId", '') AS "roomId", COALESCE("taskId", '') AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "agentId", "ownerId", "requesterId", "roomId", "taskId", "model";
