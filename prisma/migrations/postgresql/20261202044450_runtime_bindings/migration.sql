-- CreateEnum
CREATE TYPE "BindingStatus" AS ENUM ('active', 'awaiting_input', 'closed', 'idle');

-- CreateTable
CREATE TABLE "RuntimeBinding" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "threadKey" TEXT NOT NULL DEFAULT '',
    "runtime" TEXT NOT NULL,
    "externalId" TEXT,
    "openTaskId" TEXT,
    "runner" TEXT,
    "host" TEXT,
    "workdir" TEXT,
    "config" JSONB,
    "status" "BindingStatus" NOT NULL DEFAULT 'active',
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "resumes" INTEGER NOT NULL DEFAULT 0,
    "resumeFailures" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "leaseHolder" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),
    "closedById" TEXT,

    CONSTRAINT "RuntimeBinding_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RuntimeBinding_roomId_idx" ON "RuntimeBinding"("roomId");

-- CreateIndex
CREATE UNIQUE INDEX "RuntimeBinding_agentId_roomId_threadKey_runtime_key" ON "RuntimeBinding"("agentId", "roomId", "threadKey", "runtime");

-- AddForeignKey
ALTER TABLE "RuntimeBinding" ADD CONSTRAINT "RuntimeBinding_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RuntimeBinding" ADD CONSTRAINT "RuntimeBinding_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RuntimeBinding" ADD CONSTRAINT "RuntimeBinding_closedById_fkey" FOREIGN KEY ("closedById") REFERENCES "Participant"("id") ON DELETE SET NULL ON UPDATE CASCADE;
