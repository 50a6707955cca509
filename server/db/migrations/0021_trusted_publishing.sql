CREATE TABLE "publisher_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"publisher_id" text NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"node_id" text DEFAULT '' NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "publisher_events_kind" CHECK ("publisher_events"."kind" in ('trusted_publisher.add', 'trusted_publisher.remove', 'token.create', 'token.delete', 'version.publish'))
);
--> statement-breakpoint
CREATE TABLE "trusted_publishers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" text NOT NULL,
	"repository_owner" text NOT NULL,
	"repository_owner_id" text NOT NULL,
	"repository_name" text NOT NULL,
	"workflow_filename" text NOT NULL,
	"environment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text DEFAULT '' NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "trusted_publishing_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"node_id" text NOT NULL,
	"publisher_id" text NOT NULL,
	"trusted_publisher_id" uuid,
	"jti" text NOT NULL,
	"provenance" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trusted_publishing_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "trusted_publishing_used_jtis" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "node_versions" ADD COLUMN "provenance" jsonb DEFAULT '{"method":"unknown"}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "publisher_events" ADD CONSTRAINT "publisher_events_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trusted_publishers" ADD CONSTRAINT "trusted_publishers_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "trusted_publishing_tokens" ADD CONSTRAINT "trusted_publishing_tokens_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "trusted_publishing_tokens" ADD CONSTRAINT "trusted_publishing_tokens_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trusted_publishing_tokens" ADD CONSTRAINT "trusted_publishing_tokens_trusted_publisher_id_trusted_publishers_id_fk" FOREIGN KEY ("trusted_publisher_id") REFERENCES "public"."trusted_publishers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "publisher_events_publisher_created_idx" ON "publisher_events" USING btree ("publisher_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE UNIQUE INDEX "trusted_publishers_identity_idx" ON "trusted_publishers" USING btree ("node_id",lower("repository_owner"),lower("repository_name"),lower("workflow_filename"),lower("environment"));--> statement-breakpoint
CREATE INDEX "trusted_publishing_tokens_trusted_publisher_idx" ON "trusted_publishing_tokens" USING btree ("trusted_publisher_id");--> statement-breakpoint
CREATE INDEX "trusted_publishing_tokens_expires_at_idx" ON "trusted_publishing_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "trusted_publishing_used_jtis_expires_at_idx" ON "trusted_publishing_used_jtis" USING btree ("expires_at");--> statement-breakpoint
-- Backfill: a version whose upload link came from a personal access token was published with it.
UPDATE "node_versions" AS v SET "provenance" = jsonb_build_object('method', 'token', 'token_name', t."name")
FROM "pending_uploads" AS u JOIN "personal_access_tokens" AS t ON t."id" = u."token_id"
WHERE u."node_version_id" = v."id";
