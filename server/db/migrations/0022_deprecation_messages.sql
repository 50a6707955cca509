ALTER TABLE "node_versions" ADD COLUMN "deprecation_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "deprecated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "deprecation_message" text DEFAULT '' NOT NULL;