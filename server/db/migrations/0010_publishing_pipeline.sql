CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"lease_until" timestamp with time zone,
	"last_error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comfy_nodes" ADD COLUMN "display_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "node_versions" ADD COLUMN "comfy_node_extract_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "node_versions" ADD COLUMN "pipeline_state" text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE "node_versions" ADD COLUMN "scan_findings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "node_versions" ADD COLUMN "scanned_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_active_subject_idx" ON "jobs" USING btree ("kind","subject") WHERE "jobs"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("state","run_at");