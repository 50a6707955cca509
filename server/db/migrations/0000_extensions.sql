-- Hand-written (drizzle-kit generate --custom): runs before the generated table migrations.
-- pg_trgm: trigram GIN indexes (gin_trgm_ops) for typo-tolerant search. PGlite must be created
-- with the pg_trgm extension loaded (see server/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- array_to_string() is only STABLE, so a generated column cannot call it; this wrapper is
-- IMMUTABLE (true for text[]) and is used by nodes.search_vector.
CREATE OR REPLACE FUNCTION registry_array_to_text(arr text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_to_string(arr, ' '), '') $$;
