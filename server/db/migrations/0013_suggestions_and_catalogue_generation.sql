CREATE TABLE "catalogue_generation" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalogue_generation_single_row" CHECK ("catalogue_generation"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "suggestion_terms" (
	"kind" text NOT NULL,
	"term" text NOT NULL,
	"is_start" boolean NOT NULL,
	"label" text NOT NULL,
	"node_id" text,
	"publisher_id" text,
	CONSTRAINT "suggestion_terms_kind" CHECK ("suggestion_terms"."kind" in ('node', 'comfy_node', 'publisher'))
);
--> statement-breakpoint
ALTER TABLE "suggestion_terms" ADD CONSTRAINT "suggestion_terms_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggestion_terms" ADD CONSTRAINT "suggestion_terms_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "suggestion_terms_term_idx" ON "suggestion_terms" USING btree ("term" text_pattern_ops,"is_start","kind","label","node_id","publisher_id");--> statement-breakpoint
CREATE INDEX "suggestion_terms_node_idx" ON "suggestion_terms" USING btree ("node_id","kind");--> statement-breakpoint
CREATE INDEX "suggestion_terms_publisher_idx" ON "suggestion_terms" USING btree ("publisher_id");--> statement-breakpoint
-- The terms a label (and its alias: a node's or publisher's id) is found by (suggestion_terms):
-- the whole label lower-cased, its words joined by spaces (CamelCase, digits, "-", "_" split
-- words: "KSamplerAdvanced" is also "k sampler advanced"), and the label from each later word on
-- (at most eight words); each term once.
CREATE FUNCTION registry_suggestion_terms(label text, alias text DEFAULT NULL)
  RETURNS TABLE(term text, is_start boolean)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  WITH names AS (
    SELECT name FROM unnest(array[coalesce(label, ''), alias]) AS name WHERE name IS NOT NULL
  ), words AS (
    SELECT array_remove(regexp_split_to_array(lower(
      regexp_replace(regexp_replace(name,
        '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g'),
        '([[:upper:]])([[:upper:]][[:lower:]])', '\1 \2', 'g')), '[^[:alnum:]]+'), '') AS w
    FROM names
  ), found AS (
    SELECT left(regexp_replace(lower(btrim(name)), '\s+', ' ', 'g'), 200) AS term, true AS is_start
      FROM names
    UNION ALL SELECT left(array_to_string(w, ' '), 200), true FROM words
    UNION ALL SELECT left(array_to_string(w[i:], ' '), 200), false
      FROM words, generate_series(2, least(cardinality(w), 8)) AS i
  )
  SELECT term, bool_or(is_start) FROM found WHERE term <> '' GROUP BY term
  $$;--> statement-breakpoint
CREATE FUNCTION registry_node_suggestions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.name IS DISTINCT FROM OLD.name THEN
    DELETE FROM suggestion_terms WHERE node_id = NEW.id AND kind = 'node';
    INSERT INTO suggestion_terms (kind, term, is_start, label, node_id)
      SELECT 'node', t.term, t.is_start, left(coalesce(nullif(NEW.name, ''), NEW.id), 200), NEW.id
      FROM registry_suggestion_terms(NEW.name, NEW.id) AS t;
  END IF;
  IF TG_OP = 'INSERT' OR NEW.latest_version_id IS DISTINCT FROM OLD.latest_version_id THEN
    DELETE FROM suggestion_terms WHERE node_id = NEW.id AND kind = 'comfy_node';
    INSERT INTO suggestion_terms (kind, term, is_start, label, node_id)
      SELECT 'comfy_node', t.term, t.is_start, left(c.comfy_node_name, 200), NEW.id
      FROM comfy_nodes AS c, registry_suggestion_terms(c.comfy_node_name) AS t
      WHERE c.node_version_id = NEW.latest_version_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER nodes_suggestions AFTER INSERT OR UPDATE OF name, latest_version_id ON nodes
  FOR EACH ROW EXECUTE FUNCTION registry_node_suggestions();--> statement-breakpoint
-- Classes of a version that is already its node's latest (classes read again, or added).
CREATE FUNCTION registry_comfy_node_suggestions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM suggestion_terms
      WHERE kind = 'comfy_node' AND label = left(OLD.comfy_node_name, 200)
        AND node_id IN (SELECT id FROM nodes WHERE latest_version_id = OLD.node_version_id);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO suggestion_terms (kind, term, is_start, label, node_id)
      SELECT 'comfy_node', t.term, t.is_start, left(NEW.comfy_node_name, 200), n.id
      FROM nodes AS n, registry_suggestion_terms(NEW.comfy_node_name) AS t
      WHERE n.latest_version_id = NEW.node_version_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER comfy_nodes_suggestions
  AFTER INSERT OR DELETE OR UPDATE OF comfy_node_name, node_version_id ON comfy_nodes
  FOR EACH ROW EXECUTE FUNCTION registry_comfy_node_suggestions();--> statement-breakpoint
CREATE FUNCTION registry_publisher_suggestions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM suggestion_terms WHERE publisher_id = NEW.id;
  INSERT INTO suggestion_terms (kind, term, is_start, label, publisher_id)
    SELECT 'publisher', t.term, t.is_start, left(coalesce(nullif(NEW.name, ''), NEW.id), 200), NEW.id
    FROM registry_suggestion_terms(NEW.name, NEW.id) AS t;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER publishers_suggestions AFTER INSERT OR UPDATE OF name ON publishers
  FOR EACH ROW EXECUTE FUNCTION registry_publisher_suggestions();--> statement-breakpoint
-- What is already there.
INSERT INTO suggestion_terms (kind, term, is_start, label, publisher_id)
  SELECT 'publisher', t.term, t.is_start, left(coalesce(nullif(p.name, ''), p.id), 200), p.id
  FROM publishers AS p, registry_suggestion_terms(p.name, p.id) AS t;--> statement-breakpoint
INSERT INTO suggestion_terms (kind, term, is_start, label, node_id)
  SELECT 'node', t.term, t.is_start, left(coalesce(nullif(n.name, ''), n.id), 200), n.id
  FROM nodes AS n, registry_suggestion_terms(n.name, n.id) AS t;--> statement-breakpoint
INSERT INTO suggestion_terms (kind, term, is_start, label, node_id)
  SELECT 'comfy_node', t.term, t.is_start, left(c.comfy_node_name, 200), n.id
  FROM nodes AS n JOIN comfy_nodes AS c ON c.node_version_id = n.latest_version_id,
    registry_suggestion_terms(c.comfy_node_name) AS t;--> statement-breakpoint
-- The catalogue generation: bumped at commit (a deferred trigger, so the row is locked only
-- while committing, never across a transaction's other statements), once per transaction.
INSERT INTO catalogue_generation (id, generation) VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION registry_catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('registry.catalogue_changed', true) IS DISTINCT FROM '1' THEN
    PERFORM set_config('registry.catalogue_changed', '1', true);
    UPDATE catalogue_generation SET generation = generation + 1 WHERE id = 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Every column a listing filters, sorts or searches by, except the download count (which
-- changes with every install: orderings by downloads are refreshed by age instead).
CREATE CONSTRAINT TRIGGER nodes_catalogue_changed
  AFTER INSERT OR DELETE OR UPDATE OF id, publisher_id, name, description, author, repository,
    tags, github_stars, status, supported_os, supported_accelerators, latest_version_id,
    latest_version_created_at, created_at
  ON nodes DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION registry_catalogue_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER publishers_catalogue_changed
  AFTER INSERT OR DELETE OR UPDATE OF id, name, status ON publishers DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION registry_catalogue_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER comfy_nodes_catalogue_changed
  AFTER INSERT OR DELETE OR UPDATE ON comfy_nodes DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION registry_catalogue_changed();
