-- CreateIndex
CREATE INDEX "RoomMember_roomId_deliveryMode_idx" ON "RoomMember"("roomId", "deliveryMode");
