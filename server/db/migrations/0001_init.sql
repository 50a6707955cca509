CREATE TYPE "public"."node_status" AS ENUM('NodeStatusActive', 'NodeStatusDeleted', 'NodeStatusBanned');--> statement-breakpoint
CREATE TYPE "public"."node_version_status" AS ENUM('NodeVersionStatusActive', 'NodeVersionStatusDeleted', 'NodeVersionStatusBanned', 'NodeVersionStatusPending', 'NodeVersionStatusFlagged');--> statement-breakpoint
CREATE TYPE "public"."publisher_status" AS ENUM('PublisherStatusActive', 'PublisherStatusBanned');--> statement-breakpoint
CREATE TABLE "comfy_nodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_version_id" uuid NOT NULL,
	"comfy_node_name" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"input_types" text DEFAULT '' NOT NULL,
	"return_types" text DEFAULT '' NOT NULL,
	"return_names" text DEFAULT '' NOT NULL,
	"output_is_list" boolean[] DEFAULT '{}'::boolean[] NOT NULL,
	"function" text DEFAULT '' NOT NULL,
	"deprecated" boolean DEFAULT false NOT NULL,
	"experimental" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "node_downloads_daily" (
	"node_id" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "node_downloads_daily_pk" PRIMARY KEY("node_id","day")
);
--> statement-breakpoint
CREATE TABLE "node_reviews" (
	"node_id" text NOT NULL,
	"user_id" text NOT NULL,
	"star" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "node_reviews_pk" PRIMARY KEY("node_id","user_id"),
	CONSTRAINT "node_reviews_star_range" CHECK ("node_reviews"."star" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "node_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"node_id" text NOT NULL,
	"version" text NOT NULL,
	"major" integer DEFAULT 0 NOT NULL,
	"minor" integer DEFAULT 0 NOT NULL,
	"patch" integer DEFAULT 0 NOT NULL,
	"prerelease" text DEFAULT '' NOT NULL,
	"changelog" text DEFAULT '' NOT NULL,
	"dependencies" text[] DEFAULT '{}'::text[] NOT NULL,
	"storage_key" text,
	"deprecated" boolean DEFAULT false NOT NULL,
	"status" "node_version_status" DEFAULT 'NodeVersionStatusPending' NOT NULL,
	"status_reason" text DEFAULT '' NOT NULL,
	"comfy_node_extract_status" text DEFAULT '' NOT NULL,
	"supported_os" text[] DEFAULT '{}'::text[] NOT NULL,
	"supported_accelerators" text[] DEFAULT '{}'::text[] NOT NULL,
	"supported_comfyui_version" text DEFAULT '' NOT NULL,
	"supported_comfyui_frontend_version" text DEFAULT '' NOT NULL,
	"downloads" bigint DEFAULT 0 NOT NULL,
	"scan_finding" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"publisher_id" text,
	"name" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"author" text DEFAULT '' NOT NULL,
	"license" text DEFAULT '' NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"banner_url" text DEFAULT '' NOT NULL,
	"repository" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"downloads" bigint DEFAULT 0 NOT NULL,
	"github_stars" integer DEFAULT 0 NOT NULL,
	"rating" double precision DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"status" "node_status" DEFAULT 'NodeStatusActive' NOT NULL,
	"status_detail" text DEFAULT '' NOT NULL,
	"supported_os" text[] DEFAULT '{}'::text[] NOT NULL,
	"supported_accelerators" text[] DEFAULT '{}'::text[] NOT NULL,
	"supported_comfyui_version" text DEFAULT '' NOT NULL,
	"supported_comfyui_frontend_version" text DEFAULT '' NOT NULL,
	"latest_version_id" uuid,
	"latest_version_created_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, coalesce("id", '') || ' ' || coalesce("name", '')), 'A') || setweight(to_tsvector('english'::regconfig, registry_array_to_text("tags") || ' ' || coalesce("author", '')), 'B') || setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'C')) STORED
);
--> statement-breakpoint
CREATE TABLE "pending_uploads" (
	"token" text PRIMARY KEY NOT NULL,
	"node_version_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personal_access_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"publisher_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "personal_access_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "publisher_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"publisher_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "publisher_members_role" CHECK ("publisher_members"."role" in ('owner', 'member'))
);
--> statement-breakpoint
CREATE TABLE "publishers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"support" text DEFAULT '' NOT NULL,
	"source_code_repo" text DEFAULT '' NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	"status" "publisher_status" DEFAULT 'PublisherStatusActive' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "publishers_id_format" CHECK ("publishers"."id" ~ '^[a-z][a-z0-9-]*$')
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"is_approved" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comfy_nodes" ADD CONSTRAINT "comfy_nodes_node_version_id_node_versions_id_fk" FOREIGN KEY ("node_version_id") REFERENCES "public"."node_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_downloads_daily" ADD CONSTRAINT "node_downloads_daily_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "node_reviews" ADD CONSTRAINT "node_reviews_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "node_reviews" ADD CONSTRAINT "node_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "node_versions" ADD CONSTRAINT "node_versions_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_latest_version_id_fk" FOREIGN KEY ("latest_version_id") REFERENCES "public"."node_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_uploads" ADD CONSTRAINT "pending_uploads_node_version_id_node_versions_id_fk" FOREIGN KEY ("node_version_id") REFERENCES "public"."node_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publisher_members" ADD CONSTRAINT "publisher_members_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publisher_members" ADD CONSTRAINT "publisher_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "comfy_nodes_version_name_idx" ON "comfy_nodes" USING btree ("node_version_id","comfy_node_name");--> statement-breakpoint
CREATE INDEX "comfy_nodes_name_trgm_idx" ON "comfy_nodes" USING gin (lower("comfy_node_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "node_reviews_user_idx" ON "node_reviews" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "node_versions_node_version_idx" ON "node_versions" USING btree ("node_id","version");--> statement-breakpoint
CREATE INDEX "node_versions_status_created_idx" ON "node_versions" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "node_versions_created_at_idx" ON "node_versions" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "nodes_lower_id_idx" ON "nodes" USING btree (lower("id"));--> statement-breakpoint
CREATE INDEX "nodes_publisher_idx" ON "nodes" USING btree ("publisher_id");--> statement-breakpoint
CREATE INDEX "nodes_search_vector_idx" ON "nodes" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "nodes_id_trgm_idx" ON "nodes" USING gin (lower("id") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "nodes_name_trgm_idx" ON "nodes" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "nodes_downloads_idx" ON "nodes" USING btree ("downloads" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "nodes_github_stars_idx" ON "nodes" USING btree ("github_stars" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "nodes_created_at_idx" ON "nodes" USING btree ("created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "nodes_latest_version_created_at_idx" ON "nodes" USING btree ("latest_version_created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "nodes_lower_name_idx" ON "nodes" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "nodes_tags_idx" ON "nodes" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "nodes_supported_os_idx" ON "nodes" USING gin ("supported_os");--> statement-breakpoint
CREATE INDEX "nodes_supported_accelerators_idx" ON "nodes" USING gin ("supported_accelerators");--> statement-breakpoint
CREATE INDEX "nodes_status_idx" ON "nodes" USING btree ("status");--> statement-breakpoint
CREATE INDEX "pending_uploads_node_version_idx" ON "pending_uploads" USING btree ("node_version_id");--> statement-breakpoint
CREATE INDEX "personal_access_tokens_publisher_idx" ON "personal_access_tokens" USING btree ("publisher_id");--> statement-breakpoint
CREATE UNIQUE INDEX "publisher_members_publisher_user_idx" ON "publisher_members" USING btree ("publisher_id","user_id");--> statement-breakpoint
CREATE INDEX "publisher_members_user_idx" ON "publisher_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "publishers_created_at_idx" ON "publishers" USING btree ("created_at" DESC NULLS FIRST);