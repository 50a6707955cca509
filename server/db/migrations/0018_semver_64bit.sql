-- Numeric identifiers up to 2^64 - 1 (today's registry; e.g. date-stamped 1.0.2608210019):
-- major/minor/patch become numeric(20,0) (bigint stops at 2^63 - 1); existing values convert.
-- Hand-added: prerelease_key orders prereleases by semver section 11 when compared in the "C"
-- collation: identifiers joined by ' ' (below every identifier character, so 'a' < 'a.b' and
-- 'a.c' < 'a-b'); a number becomes '0' + its length in three digits + its digits (numbers by
-- value, below text); text becomes '1' + itself (ASCII order). Existing rows get their key
-- when the generated column is added. server/db/semver.ts compareParsed() is the same order.
CREATE OR REPLACE FUNCTION registry_prerelease_key(prerelease text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT coalesce(string_agg(
      CASE WHEN part ~ '^[0-9]+$' THEN '0' || lpad(length(part)::text, 3, '0') || part
           ELSE '1' || part END,
      ' ' ORDER BY n), '')
    FROM unnest(string_to_array(nullif(prerelease, ''), '.')) WITH ORDINALITY AS t(part, n)
  $$;--> statement-breakpoint
ALTER TABLE "node_versions" ALTER COLUMN "major" SET DATA TYPE numeric(20, 0);--> statement-breakpoint
ALTER TABLE "node_versions" ALTER COLUMN "major" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "node_versions" ALTER COLUMN "minor" SET DATA TYPE numeric(20, 0);--> statement-breakpoint
ALTER TABLE "node_versions" ALTER COLUMN "minor" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "node_versions" ALTER COLUMN "patch" SET DATA TYPE numeric(20, 0);--> statement-breakpoint
ALTER TABLE "node_versions" ALTER COLUMN "patch" SET DEFAULT '0';--> statement-breakpoint
ALTER TABLE "node_versions" ADD COLUMN "prerelease_key" text GENERATED ALWAYS AS (registry_prerelease_key("prerelease")) STORED NOT NULL;