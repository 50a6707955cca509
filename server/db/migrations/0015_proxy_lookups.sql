CREATE TABLE "proxy_lookups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"outcome" text NOT NULL,
	"latency_ms" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proxy_lookups" ADD CONSTRAINT "proxy_lookups_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proxy_lookups_created_idx" ON "proxy_lookups" USING btree ("created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "proxy_lookups_customer_idx" ON "proxy_lookups" USING btree ("customer_id","created_at" DESC NULLS LAST);