-- Maintenance finds the archives of deleted versions still to remove (removeDeletedArchives in
-- server/versions/writes.ts) without reading every deleted version (docs/ARCHITECTURE.md,
-- "Maintenance at a process's start").
CREATE INDEX "node_versions_deleted_archives_idx" ON "node_versions" USING btree ("id") WHERE "node_versions"."status" = 'NodeVersionStatusDeleted' and "node_versions"."storage_key" is not null;
