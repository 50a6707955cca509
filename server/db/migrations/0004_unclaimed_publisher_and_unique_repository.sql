-- Unclaimed nodes belong to one reserved publisher instead of none, so every node in every
-- answer carries a `publisher` (clients read node.publisher.name). The id is the one today's
-- registry uses (UNCLAIMED_PUBLISHER in src/lib/constants.ts); it can never be registered.
INSERT INTO "publishers" ("id", "name", "description")
  VALUES ('admin-11338bd3-f081-43cf-b3f9-295c829826f7', 'Unclaimed', 'Nodes that no publisher has claimed yet. The owner of a node’s GitHub repository can claim it on the node’s page.')
  ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
UPDATE "nodes" SET "publisher_id" = 'admin-11338bd3-f081-43cf-b3f9-295c829826f7' WHERE "publisher_id" IS NULL;--> statement-breakpoint
ALTER TABLE "nodes" ALTER COLUMN "publisher_id" SET NOT NULL;--> statement-breakpoint
-- The comparable form of a repository URL: no scheme, "www.", trailing slashes or ".git";
-- lowercase. IMMUTABLE, so a unique index can use it (one live node per repository).
CREATE OR REPLACE FUNCTION registry_repository_key(url text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT regexp_replace(regexp_replace(regexp_replace(regexp_replace(
    lower(btrim(url)), '^[a-z+]+://', ''), '^www\.', ''), '/+$', ''), '\.git$', '') $$;--> statement-breakpoint
CREATE UNIQUE INDEX "nodes_repository_key_idx" ON "nodes" USING btree (registry_repository_key("repository")) WHERE "nodes"."status" <> 'NodeStatusDeleted' and "nodes"."repository" <> '';
