-- Status strings become enum types. Each column is converted in place and keeps its rows: text to
-- the enum of the same values (a value outside the set fails the migration, which then rolls back).
-- A column's default is dropped, the type changed and the default set again (a text default does not
-- convert by itself). Indexes on a converted column are rebuilt by PostgreSQL under their own names.
-- Each table is rewritten once and its indexes rebuilt: on a long history, Message takes most of the time.

-- CreateEnum
CREATE TYPE "WorkspaceRole" AS ENUM ('admin', 'guest', 'member', 'owner');
CREATE TYPE "InviteRole" AS ENUM ('admin', 'guest', 'member');
CREATE TYPE "ParticipantKind" AS ENUM ('agent', 'human');
CREATE TYPE "ParticipantStatus" AS ENUM ('active', 'suspended');
CREATE TYPE "ConsentPolicy" AS ENUM ('ask', 'own', 'refuse', 'workspace');
CREATE TYPE "RoomKind" AS ENUM ('channel', 'dm', 'group');
CREATE TYPE "RoomVisibility" AS ENUM ('private', 'public');
CREATE TYPE "RoomRole" AS ENUM ('member', 'owner');
CREATE TYPE "DeliveryMode" AS ENUM ('all', 'mentions', 'none');
CREATE TYPE "MessageKind" AS ENUM ('event', 'system', 'text');
CREATE TYPE "ReceiptState" AS ENUM ('failed', 'processed', 'processing');
CREATE TYPE "ConnectionStatus" AS ENUM ('accepted', 'blocked', 'cancelled', 'declined', 'pending', 'revoked');
CREATE TYPE "CostSource" AS ENUM ('priced', 'reported', 'unpriced');
CREATE TYPE "BudgetSubject" AS ENUM ('agent', 'person');
CREATE TYPE "BudgetPeriod" AS ENUM ('day', 'month');
CREATE TYPE "BudgetUnit" AS ENUM ('tokens', 'usd');
CREATE TYPE "BudgetState" AS ENUM ('exceeded', 'ok', 'warned');

-- AlterTable
ALTER TABLE "Member"
  ALTER COLUMN "role" SET DATA TYPE "WorkspaceRole" USING ("role"::text::"WorkspaceRole");

-- AlterTable
ALTER TABLE "Participant"
  ALTER COLUMN "kind" SET DATA TYPE "ParticipantKind" USING ("kind"::text::"ParticipantKind"),
  ALTER COLUMN "status" DROP DEFAULT,
  ALTER COLUMN "status" SET DATA TYPE "ParticipantStatus" USING ("status"::text::"ParticipantStatus"),
  ALTER COLUMN "status" SET DEFAULT 'active',
  ALTER COLUMN "consentPolicy" DROP DEFAULT,
  ALTER COLUMN "consentPolicy" SET DATA TYPE "ConsentPolicy" USING ("consentPolicy"::text::"ConsentPolicy"),
  ALTER COLUMN "consentPolicy" SET DEFAULT 'ask';

-- AlterTable
ALTER TABLE "Invite"
  ALTER COLUMN "role" DROP DEFAULT,
  ALTER COLUMN "role" SET DATA TYPE "InviteRole" USING ("role"::text::"InviteRole"),
  ALTER COLUMN "role" SET DEFAULT 'member';

-- AlterTable
ALTER TABLE "Room"
  ALTER COLUMN "kind" SET DATA TYPE "RoomKind" USING ("kind"::text::"RoomKind"),
  ALTER COLUMN "visibility" SET DATA TYPE "RoomVisibility" USING ("visibility"::text::"RoomVisibility");

-- AlterTable
ALTER TABLE "RoomMember"
  ALTER COLUMN "role" DROP DEFAULT,
  ALTER COLUMN "role" SET DATA TYPE "RoomRole" USING ("role"::text::"RoomRole"),
  ALTER COLUMN "role" SET DEFAULT 'member',
  ALTER COLUMN "deliveryMode" DROP DEFAULT,
  ALTER COLUMN "deliveryMode" SET DATA TYPE "DeliveryMode" USING ("deliveryMode"::text::"DeliveryMode"),
  ALTER COLUMN "deliveryMode" SET DEFAULT 'all';

-- AlterTable
ALTER TABLE "Message"
  ALTER COLUMN "kind" DROP DEFAULT,
  ALTER COLUMN "kind" SET DATA TYPE "MessageKind" USING ("kind"::text::"MessageKind"),
  ALTER COLUMN "kind" SET DEFAULT 'text';

-- AlterTable
ALTER TABLE "MessageReceipt"
  ALTER COLUMN "state" SET DATA TYPE "ReceiptState" USING ("state"::text::"ReceiptState");

-- AlterTable
ALTER TABLE "Connection"
  ALTER COLUMN "status" SET DATA TYPE "ConnectionStatus" USING ("status"::text::"ConnectionStatus");

-- AlterTable
ALTER TABLE "UsageRecord"
  ALTER COLUMN "costSource" SET DATA TYPE "CostSource" USING ("costSource"::text::"CostSource");

-- AlterTable
ALTER TABLE "Budget"
  ALTER COLUMN "subjectType" SET DATA TYPE "BudgetSubject" USING ("subjectType"::text::"BudgetSubject"),
  ALTER COLUMN "period" SET DATA TYPE "BudgetPeriod" USING ("period"::text::"BudgetPeriod"),
  ALTER COLUMN "unit" SET DATA TYPE "BudgetUnit" USING ("unit"::text::"BudgetUnit"),
  ALTER COLUMN "state" DROP DEFAULT,
  ALTER COLUMN "state" SET DATA TYPE "BudgetState" USING ("state"::text::"BudgetState"),
  ALTER COLUMN "state" SET DEFAULT 'ok';
