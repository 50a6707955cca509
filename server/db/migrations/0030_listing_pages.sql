CREATE TABLE "listing_pages" (
	"key" text PRIMARY KEY NOT NULL,
	"horizon" bigint NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL,
	"json" text NOT NULL
);
--> statement-breakpoint
-- A cache (server/nodes/shared-pages.ts): not written to the WAL, emptied after a crash.
ALTER TABLE "listing_pages" SET UNLOGGED;
--> statement-breakpoint
-- Pages (about 60 kB) are kept uncompressed: compressing each one written, and decompressing each
-- one read, cost more than the room it saves (docs/ARCHITECTURE.md, "The whole catalogue…").
ALTER TABLE "listing_pages" ALTER COLUMN "json" SET STORAGE EXTERNAL;
