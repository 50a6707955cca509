-- Stored pages are a cache (server/nodes/shared-pages.ts): emptied, then kept gzip-compressed,
-- compressed by the API that wrote them and sent as they are to clients that accept gzip
-- (docs/ARCHITECTURE.md, "Whole pages shared through the database").
TRUNCATE TABLE "listing_pages";
--> statement-breakpoint
ALTER TABLE "listing_pages" DROP COLUMN "json";
--> statement-breakpoint
ALTER TABLE "listing_pages" ADD COLUMN "gzip" bytea NOT NULL;
--> statement-breakpoint
-- Compressed already: PostgreSQL's own compression would only cost time.
ALTER TABLE "listing_pages" ALTER COLUMN "gzip" SET STORAGE EXTERNAL;
