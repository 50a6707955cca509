-- The words of a node's id and name alone (the search vector's weight A), for the start of a word
-- few names have (server/nodes/name-starts.ts, queries.ts textBranches). Analyzed at once: the
-- statistics of this expression are what tells search how many names have a start.
CREATE INDEX "nodes_name_words_idx" ON "nodes" USING gin (to_tsvector('english'::regconfig, coalesce("id", '') || ' ' || coalesce("name", '')));--> statement-breakpoint
ANALYZE "nodes";
