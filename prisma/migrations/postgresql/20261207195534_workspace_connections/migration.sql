-- CreateEnum
CREATE TYPE "WorkspaceConnectionStatus" AS ENUM ('active', 'disconnected', 'pending', 'revoked');

-- CreateEnum
CREATE TYPE "RoomShareStatus" AS ENUM ('active', 'ended', 'left', 'pending');

-- AlterTable
ALTER TABLE "Workspace" ADD COLUMN     "domain" TEXT,
ADD COLUMN     "domainToken" TEXT,
ADD COLUMN     "domainVerifiedAt" TIMESTAMP(3),
ADD COLUMN     "domainVerifiedBy" TEXT;

-- CreateTable
CREATE TABLE "WorkspaceConnection" (
    "id" TEXT NOT NULL,
    "inviterId" TEXT NOT NULL,
    "accepterId" TEXT,
    "status" "WorkspaceConnectionStatus" NOT NULL DEFAULT 'pending',
    "codeHash" TEXT NOT NULL,
    "codePrefix" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdById" TEXT NOT NULL,
    "acceptedById" TEXT,
    "acceptedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "endedById" TEXT,
    "endedByWorkspaceId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkspaceConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkspaceConnectionSide" (
    "connectionId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "directory" TEXT NOT NULL DEFAULT 'agents',
    "listedIds" JSONB,
    "otherMay" TEXT NOT NULL DEFAULT 'post',
    "approveRooms" BOOLEAN NOT NULL DEFAULT true,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkspaceConnectionSide_pkey" PRIMARY KEY ("connectionId","workspaceId")
);

-- CreateTable
CREATE TABLE "RoomShare" (
    "roomId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "status" "RoomShareStatus" NOT NULL DEFAULT 'pending',
    "sharedById" TEXT NOT NULL,
    "approvedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RoomShare_pkey" PRIMARY KEY ("roomId","workspaceId")
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

-- AddForeignKey
ALTER TABLE "WorkspaceConnection" ADD CONSTRAINT "WorkspaceConnection_inviterId_fkey" FOREIGN KEY ("inviterId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceConnection" ADD CONSTRAINT "WorkspaceConnection_accepterId_fkey" FOREIGN KEY ("accepterId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceConnectionSide" ADD CONSTRAINT "WorkspaceConnectionSide_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "WorkspaceConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceConnectionSide" ADD CONSTRAINT "WorkspaceConnectionSide_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomShare" ADD CONSTRAINT "RoomShare_roomId_fkey" FOREIGN KEY ("roomId") REFERENCES "Room"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomShare" ADD CONSTRAINT "RoomShare_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "WorkspaceConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RoomShare" ADD CONSTRAINT "RoomShare_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
