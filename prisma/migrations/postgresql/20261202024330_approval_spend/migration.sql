-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "approvalSpendUsd" DOUBLE PRECISION;
