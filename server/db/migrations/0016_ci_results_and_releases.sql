CREATE TABLE "ci_commits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"repo" text NOT NULL,
	"repo_key" text NOT NULL,
	"commit_hash" text NOT NULL,
	"branch_name" text NOT NULL,
	"commit_message" text DEFAULT '' NOT NULL,
	"author" text DEFAULT '' NOT NULL,
	"commit_time" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ci_workflow_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"commit_id" uuid NOT NULL,
	"job_id" text NOT NULL,
	"run_id" text DEFAULT '' NOT NULL,
	"workflow_name" text NOT NULL,
	"operating_system" text NOT NULL,
	"gpu_type" text DEFAULT '' NOT NULL,
	"python_version" text DEFAULT '' NOT NULL,
	"pytorch_version" text DEFAULT '' NOT NULL,
	"cuda_version" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"avg_vram" integer,
	"peak_vram" integer,
	"machine_stats" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"output_files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ci_workflow_results_job_id_unique" UNIQUE("job_id"),
	CONSTRAINT "ci_workflow_results_status_known" CHECK ("ci_workflow_results"."status" in ('started', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "releases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project" text NOT NULL,
	"version" text NOT NULL,
	"attention" text DEFAULT 'low' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"github_release_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "proxy_lookups_customer_idx";--> statement-breakpoint
-- Lookups are recorded by user (a lookup opens no credit account): earlier rows take their
-- account's user.
ALTER TABLE "proxy_lookups" ADD COLUMN "user_id" text;--> statement-breakpoint
UPDATE "proxy_lookups" SET "user_id" = "customers"."user_id" FROM "customers" WHERE "customers"."id" = "proxy_lookups"."customer_id";--> statement-breakpoint
ALTER TABLE "proxy_lookups" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "ci_workflow_results" ADD CONSTRAINT "ci_workflow_results_commit_id_ci_commits_id_fk" FOREIGN KEY ("commit_id") REFERENCES "public"."ci_commits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ci_commits_repo_hash_unique" ON "ci_commits" USING btree ("repo_key","commit_hash");--> statement-breakpoint
CREATE INDEX "ci_commits_repo_branch_time_idx" ON "ci_commits" USING btree ("repo_key","branch_name","commit_time" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "ci_commits_repo_time_idx" ON "ci_commits" USING btree ("repo_key","commit_time" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "ci_workflow_results_commit_idx" ON "ci_workflow_results" USING btree ("commit_id","workflow_name","operating_system");--> statement-breakpoint
CREATE UNIQUE INDEX "releases_project_version_unique" ON "releases" USING btree ("project","version");--> statement-breakpoint
CREATE INDEX "releases_project_published_idx" ON "releases" USING btree ("project","published_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "proxy_lookups" ADD CONSTRAINT "proxy_lookups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proxy_lookups_user_idx" ON "proxy_lookups" USING btree ("user_id","created_at" DESC NULLS LAST);