CREATE TABLE "node_version_readmes" (
	"node_version_id" uuid PRIMARY KEY NOT NULL,
	"path" text NOT NULL,
	"format" text NOT NULL,
	"text" text NOT NULL,
	"truncated" boolean DEFAULT false NOT NULL,
	"images" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "node_versions" ADD COLUMN "license_file" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "node_versions" ADD COLUMN "license_file_spdx" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "node_version_readmes" ADD CONSTRAINT "node_version_readmes_node_version_id_node_versions_id_fk" FOREIGN KEY ("node_version_id") REFERENCES "public"."node_versions"("id") ON DELETE cascade ON UPDATE no action;