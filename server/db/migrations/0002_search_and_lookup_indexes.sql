DROP INDEX "nodes_id_trgm_idx";--> statement-breakpoint
DROP INDEX "nodes_name_trgm_idx";--> statement-breakpoint
DROP INDEX "nodes_status_idx";--> statement-breakpoint
CREATE INDEX "comfy_nodes_name_idx" ON "comfy_nodes" USING btree ("comfy_node_name");--> statement-breakpoint
CREATE INDEX "comfy_nodes_lower_name_prefix_idx" ON "comfy_nodes" USING btree (lower("comfy_node_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "nodes_latest_version_idx" ON "nodes" USING btree ("latest_version_id");--> statement-breakpoint
CREATE INDEX "nodes_id_name_trgm_idx" ON "nodes" USING gin (lower("id" || ' ' || "name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "nodes_status_publisher_idx" ON "nodes" USING btree ("status","publisher_id");--> statement-breakpoint
CREATE INDEX "nodes_repository_trgm_idx" ON "nodes" USING gin (lower("repository") gin_trgm_ops);