-- AlterTable
ALTER TABLE "Participant" ADD COLUMN "approvalSpendUsd" REAL;
