-- CreateTable
CREATE TABLE "A2aRemoteAgent" (
    "participantId" TEXT NOT NULL PRIMARY KEY,
    "cardUrl" TEXT NOT NULL,
    "card" JSONB NOT NULL,
    "credential" TEXT,
    "credentialKind" TEXT,
    "apiKey" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "lastError" TEXT,
    "leaseHolder" TEXT,
    "leaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "A2aRemoteAgent_participantId_fkey" FOREIGN KEY ("participantId") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "A2aRemoteAgent_enabled_idx" ON "A2aRemoteAgent"("enabled");
