-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OnboardingToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "maxUses" INTEGER,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "revokedAt" DATETIME,
    "roomId" TEXT,
    CONSTRAINT "OnboardingToken_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "OnboardingToken_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Participant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "OnboardingToken_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_OnboardingToken" ("createdAt", "createdById", "expiresAt", "id", "label", "maxUses", "revokedAt", "tokenHash", "uses", "workspaceId") SELECT "createdAt", "createdById", "expiresAt", "id", "label", "maxUses", "revokedAt", "tokenHash", "uses", "workspaceId" FROM "OnboardingToken";
DROP TABLE "OnboardingToken";
ALTER TABLE "new_OnboardingToken" RENAME TO "OnboardingToken";
CREATE UNIQUE INDEX "OnboardingToken_tokenHash_key" ON "OnboardingToken"("tokenHash");
CREATE INDEX "OnboardingToken_workspaceId_idx" ON "OnboardingToken"("workspaceId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
