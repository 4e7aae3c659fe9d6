-- CreateIndex
CREATE INDEX "MessageMention_roomId_seq_idx" ON "MessageMention"("roomId", "seq");
