CREATE TABLE "node_list_marks" (
	"sort" text NOT NULL,
	"position" integer NOT NULL,
	"node_id" text NOT NULL,
	"generation" bigint NOT NULL,
	"made_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "node_list_marks_sort_position_pk" PRIMARY KEY("sort","position")
);
--> statement-breakpoint
CREATE INDEX "nodes_public_downloads_idx" ON "nodes" USING btree ("downloads" DESC NULLS FIRST,"id","publisher_id") WHERE "nodes"."status" = 'NodeStatusActive';