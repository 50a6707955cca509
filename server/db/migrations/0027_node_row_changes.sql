CREATE TABLE "node_row_change_horizons" (
	"at" timestamp with time zone PRIMARY KEY DEFAULT now() NOT NULL,
	"horizon" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "node_row_changes" (
	"xid" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL,
	"node_id" text,
	"publisher_id" text
);
--> statement-breakpoint
CREATE INDEX "node_row_changes_xid_idx" ON "node_row_changes" USING btree ("xid");--> statement-breakpoint
-- Every change of a row a node is shown from is logged with its transaction's id, so that an API
-- process keeping node rows in memory learns which ones changed by reading what was logged since
-- its last read (server/nodes/row-changes.ts), instead of reading thirty rows' stamps per page.
CREATE FUNCTION registry_node_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'publishers' THEN
    INSERT INTO node_row_changes (publisher_id) VALUES (coalesce(NEW.id, OLD.id));
    IF TG_OP = 'UPDATE' AND NEW.id <> OLD.id THEN
      INSERT INTO node_row_changes (publisher_id) VALUES (OLD.id);
    END IF;
  ELSIF TG_TABLE_NAME = 'node_versions' THEN
    INSERT INTO node_row_changes (node_id) VALUES (coalesce(NEW.node_id, OLD.node_id));
    IF TG_OP = 'UPDATE' AND NEW.node_id <> OLD.node_id THEN
      INSERT INTO node_row_changes (node_id) VALUES (OLD.node_id);
    END IF;
  ELSE
    INSERT INTO node_row_changes (node_id) VALUES (coalesce(NEW.id, OLD.id));
    IF TG_OP = 'UPDATE' AND NEW.id <> OLD.id THEN
      INSERT INTO node_row_changes (node_id) VALUES (OLD.id);
    END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER nodes_row_changes AFTER INSERT OR UPDATE OR DELETE ON nodes
  FOR EACH ROW EXECUTE FUNCTION registry_node_row_changed();--> statement-breakpoint
CREATE TRIGGER node_versions_row_changes AFTER INSERT OR UPDATE OR DELETE ON node_versions
  FOR EACH ROW EXECUTE FUNCTION registry_node_row_changed();--> statement-breakpoint
CREATE TRIGGER publishers_row_changes AFTER INSERT OR UPDATE OR DELETE ON publishers
  FOR EACH ROW EXECUTE FUNCTION registry_node_row_changed();
