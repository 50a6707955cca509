-- Search's branches read the public nodes matching the words most downloaded first, at most a
-- few hundred (server/nodes/queries.ts textBranches). A word in a few percent of the nodes, or the
-- start of a word of the name ("mask pre"), is in one row of ten or fewer in that order: reading
-- them from nodes_downloads_idx fetched each row to look at its search vector (9,600 rows for
-- 200 hits: 15-20 ms). With the vector in the index, the same walk reads the index alone (4-5 ms).
-- Declared here, not in schema.ts: drizzle cannot declare INCLUDE columns.
CREATE INDEX "nodes_public_downloads_search_idx" ON "nodes" USING btree ("downloads" DESC NULLS FIRST, "id") INCLUDE ("publisher_id", "search_vector") WHERE "nodes"."status" = 'NodeStatusActive';
