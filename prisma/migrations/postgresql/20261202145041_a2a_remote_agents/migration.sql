-- CreateTable
CREATE TABLE "A2aRemoteAgent" (
    "participantId" TEXT NOT NULL,
    "cardUrl" TEXT NOT NULL,
    "card" JSONB NOT NULL,
    "credential" TEXT,
    "credentialKind" TEXT,
    "apiKey" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "lastError" TEXT,
    "leaseHolder" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "A2aRemoteAgent_pkey" PRIMARY KEY ("participantId")
);

-- CreateIndex
CREATE INDEX "A2aRemoteAgent_enabled_idx" ON "A2aRemoteAgent"("enabled");

-- AddForeignKey
ALTER TABLE "A2aRemoteAgent" ADD CONSTRAINT "A2aRemoteAgent_participantId_fkey" FOREIGN KEY ("participantId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
