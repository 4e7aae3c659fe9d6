-- AlterTable
ALTER TABLE "Message" ADD COLUMN "requesterId" TEXT;

-- AlterTable
ALTER TABLE "UsageRecord" ADD COLUMN "requesterId" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_UsageRollup" (
    "workspaceId" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "span" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "week" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "requesterId" TEXT NOT NULL DEFAULT '',
    "roomId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "inputTokens" BIGINT NOT NULL,
    "outputTokens" BIGINT NOT NULL,
    "cachedTokens" BIGINT NOT NULL,
    "costUsd" REAL NOT NULL,
    "unpricedCalls" INTEGER NOT NULL,
    "unpricedTokens" BIGINT NOT NULL,

    PRIMARY KEY ("workspaceId", "grain", "span", "day", "agentId", "ownerId", "requesterId", "roomId", "taskId", "model")
);
INSERT INTO "new_UsageRollup" ("agentId", "cachedTokens", "calls", "costUsd", "day", "grain", "inputTokens", "model", "month", "outputTokens", "ownerId", "roomId", "span", "taskId", "unpricedCalls", "unpricedTokens", "week", "workspaceId") SELECT "agentId", "cachedTokens", "calls", "costUsd", "day", "grain", "inputTokens", "model", "month", "outputTokens", "ownerId", "roomId", "span", "taskId", "unpricedCalls", "unpricedTokens", "week", "workspaceId" FROM "UsageRollup";
DROP TABLE "UsageRollup";
ALTER TABLE "new_UsageRollup" RENAME TO "UsageRollup";
CREATE INDEX "UsageRollup_workspaceId_grain_span_agentId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "agentId", "day");
CREATE INDEX "UsageRollup_workspaceId_grain_span_ownerId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "ownerId", "day");
CREATE INDEX "UsageRollup_workspaceId_grain_span_requesterId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "requesterId", "day");
CREATE INDEX "UsageRollup_workspaceId_grain_span_roomId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "roomId", "day");
CREATE INDEX "UsageRollup_workspaceId_grain_span_taskId_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "taskId", "day");
CREATE INDEX "UsageRollup_workspaceId_grain_span_model_day_idx" ON "UsageRollup"("workspaceId", "grain", "span", "model", "day");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "MessageReceipt_participantId_state_updatedAt_idx" ON "MessageReceipt"("participantId", "state", "updatedAt");

-- Requesters of what is already stored: a person's message serves that person (agents' earlier
-- messages name no cause, so they stay without one), and a usage report the requester of the message
-- it names.
UPDATE "Message" SET "requesterId" = "authorId" WHERE "authorId" IN (SELECT "id" FROM "Participant" WHERE "kind" = 'human');
UPDATE "UsageRecord" SET "requesterId" = (SELECT m."requesterId" FROM "Message" m WHERE m."id" = "UsageRecord"."messageId") WHERE "messageId" IS NOT NULL;

-- The rollups again, from the records, with the requester grain (services/usage-rollups.ts rollupBackfillSql).
DELETE FROM "UsageRollup";
INSERT INTO "UsageRollup" ("workspaceId", "grain", "span", "day", "week", "month", "agentId", "ownerId", "requesterId", "roomId", "taskId", "model", "calls", "inputTokens", "outputTokens", "cachedTokens", "costUsd", "unpricedCalls", "unpricedTokens")
SELECT "workspaceId", 'model' AS "grain", 'day' AS "span", "day" AS "day", date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days') AS "week", "month",
  '' AS "agentId", '' AS "ownerId", '' AS "requesterId", '' AS "roomId", '' AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "model"
UNION ALL
SELECT "workspaceId", 'agent' AS "grain", 'day' AS "span", "day" AS "day", date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days') AS "week", "month",
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
SELECT "workspaceId", 'requester' AS "grain", 'day' AS "span", "day" AS "day", date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days') AS "week", "month",
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
SELECT "workspaceId", 'room' AS "grain", 'day' AS "span", "day" AS "day", date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days') AS "week", "month",
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
SELECT "workspaceId", 'task' AS "grain", 'day' AS "span", "day" AS "day", date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days') AS "week", "month",
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
SELECT "workspaceId", 'agent_model' AS "grain", 'day' AS "span", "day" AS "day", date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days') AS "week", "month",
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
SELECT "workspaceId", 'room_model' AS "grain", 'day' AS "span", "day" AS "day", date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days') AS "week", "month",
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
SELECT "workspaceId", 'task_model' AS "grain", 'day' AS "span", "day" AS "day", date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days') AS "week", "month",
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
SELECT "workspaceId", 'all' AS "grain", 'day' AS "span", "day" AS "day", date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days') AS "week", "month",
  "agentId" AS "agentId", COALESCE("ownerId", '') AS "ownerId", COALESCE("requesterId", '') AS "requesterId", COALESCE("roomId", '') AS "roomId", COALESCE("taskId", '') AS "taskId", "model" AS "model",
  COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",
  SUM("costUsd") AS "costUsd", SUM(CASE WHEN "costSource" = 'unpriced' THEN 1 ELSE 0 END) AS "unpricedCalls",
  SUM(CASE WHEN "costSource" = 'unpriced' THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"
FROM "UsageRecord" GROUP BY "workspaceId", "day", "month", "agentId", "ownerId", "requesterId", "roomId", "taskId", "model";
