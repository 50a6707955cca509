CREATE TABLE "admin_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text DEFAULT '' NOT NULL,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"subject_label" text DEFAULT '' NOT NULL,
	"from_value" text DEFAULT '' NOT NULL,
	"to_value" text DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"batch_id" uuid,
	"undoes" uuid,
	"undone_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_actions_action" CHECK ("admin_actions"."action" in ('version.status', 'node.create', 'node.update', 'node.ban', 'node.unban', 'publisher.ban', 'publisher.unban', 'undo')),
	CONSTRAINT "admin_actions_subject_type" CHECK ("admin_actions"."subject_type" in ('node_version', 'node', 'publisher'))
);
--> statement-breakpoint
ALTER TABLE "node_versions" ADD COLUMN "archive_size" bigint;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "tags_admin" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "search_ranking" integer;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "preempted_comfy_node_names" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "admin_actions_created_at_idx" ON "admin_actions" USING btree ("created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "admin_actions_actor_idx" ON "admin_actions" USING btree ("actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admin_actions_action_idx" ON "admin_actions" USING btree ("action","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admin_actions_subject_idx" ON "admin_actions" USING btree ("subject_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admin_actions_batch_idx" ON "admin_actions" USING btree ("batch_id");--> statement-breakpoint
-- Archives uploaded before sizes were kept: their upload link still knows the size.
UPDATE "node_versions" SET "archive_size" = "u"."size" FROM (SELECT "node_version_id", max("uploaded_size") AS "size" FROM "pending_uploads" WHERE "uploaded_size" IS NOT NULL GROUP BY "node_version_id") AS "u" WHERE "u"."node_version_id" = "node_versions"."id" AND "node_versions"."storage_key" IS NOT NULL;
