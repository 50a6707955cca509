CREATE TABLE "node_json" (
	"node_id" text PRIMARY KEY NOT NULL,
	"stamp" text NOT NULL,
	"variant" text NOT NULL,
	"json" text NOT NULL
);
--> statement-breakpoint
-- A node's JSON (about 2 kB) is kept in its row as written: not compressed, so that reading and
-- writing it costs no compression (server/nodes/shared-json.ts). Longer ones are compressed.
ALTER TABLE "node_json" SET (toast_tuple_target = 8160);
