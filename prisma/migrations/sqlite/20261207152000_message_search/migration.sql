-- Full-text search over messages (services/messaging/search.ts): an FTS5 index of each message's body,
-- kept by triggers in the same transaction as every write (sends, edits, deletes, which empty the
-- body). Its rows are the messages' rowids (external content): rebuild it after anything that
-- renumbers them (VACUUM): INSERT INTO "MessageSearch"("MessageSearch") VALUES ('rebuild');
-- Porter stemming over unicode61 (diacritics folded), as PostgreSQL's 'english' configuration stems.
CREATE VIRTUAL TABLE "MessageSearch" USING fts5(body, content='Message', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2');
INSERT INTO "MessageSearch"("MessageSearch") VALUES ('rebuild');
CREATE TRIGGER "Message_search_insert" AFTER INSERT ON "Message" BEGIN
  INSERT INTO "MessageSearch"(rowid, body) VALUES (new.rowid, new.body);
END;
CREATE TRIGGER "Message_search_delete" AFTER DELETE ON "Message" BEGIN
  INSERT INTO "MessageSearch"("MessageSearch", rowid, body) VALUES ('delete', old.rowid, old.body);
END;
CREATE TRIGGER "Message_search_update" AFTER UPDATE OF body ON "Message" BEGIN
  INSERT INTO "MessageSearch"("MessageSearch", rowid, body) VALUES ('delete', old.rowid, old.body);
  INSERT INTO "MessageSearch"(rowid, body) VALUES (new.rowid, new.body);
END;
