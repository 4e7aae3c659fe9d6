-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN "domain" TEXT;
ALTER TABLE "Workspace" ADD COLUMN "domainToken" TEXT;
ALTER TABLE "Workspace" ADD COLUMN "domainVerifiedAt" DATETIME;
ALTER TABLE "Workspace" ADD COLUMN "domainVerifiedBy" TEXT;

-- CreateTable
CREATE TABLE "WorkspaceConnection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "inviterId" TEXT NOT NULL,
    "accepterId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "codeHash" TEXT NOT NULL,
    "codePrefix" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdById" TEXT NOT NULL,
    "acceptedById" TEXT,
    "acceptedAt" DATETIME,
    "endedAt" DATETIME,
    "endedById" TEXT,
    "endedByWorkspaceId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WorkspaceConnection_inviterId_fkey" FOREIGN KEY ("inviterId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WorkspaceConnection_accepterId_fkey" FOREIGN KEY ("accepterId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WorkspaceConnectionSide" (
    "connectionId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "directory" TEXT NOT NULL DEFAULT 'agents',
    "listedIds" JSONB,
    "otherMay" TEXT NOT NULL DEFAULT 'post',
    "approveRooms" BOOLEAN NOT NULL DEFAULT true,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("connectionId", "workspaceId"),
    CONSTRAINT "WorkspaceConnectionSide_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "WorkspaceConnection" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WorkspaceConnectionSide_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RoomShare" (
    "roomId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "sharedById" TEXT NOT NULL,
    "approvedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("roomId", "workspaceId"),
    CONSTRAINT "RoomShare_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RoomShare_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "WorkspaceConnection" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RoomShare_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "WorkspaceConnection_codeHash_key" ON "WorkspaceConnection"("codeHash");

-- CreateIndex
CREATE INDEX "WorkspaceConnection_inviterId_status_idx" ON "WorkspaceConnection"("inviterId", "status");

-- CreateIndex
CREATE INDEX "WorkspaceConnection_accepterId_status_idx" ON "WorkspaceConnection"("accepterId", "status");

-- CreateIndex
CREATE INDEX "RoomShare_workspaceId_status_idx" ON "RoomShare"("workspaceId", "status");

-- CreateIndex
CREATE INDEX "RoomShare_connectionId_idx" ON "RoomShare"("connectionId");
