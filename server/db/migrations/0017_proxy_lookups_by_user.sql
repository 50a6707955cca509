ALTER TABLE "proxy_lookups" DROP CONSTRAINT "proxy_lookups_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "proxy_lookups" DROP COLUMN "customer_id";