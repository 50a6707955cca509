ALTER TABLE "pending_uploads" ADD COLUMN "token_id" uuid;--> statement-breakpoint
ALTER TABLE "pending_uploads" ADD COLUMN "uploaded_sha256" text;--> statement-breakpoint
ALTER TABLE "pending_uploads" ADD COLUMN "uploaded_size" bigint;--> statement-breakpoint
ALTER TABLE "pending_uploads" ADD CONSTRAINT "pending_uploads_token_id_personal_access_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."personal_access_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pending_uploads_token_idx" ON "pending_uploads" USING btree ("token_id");--> statement-breakpoint
CREATE INDEX "pending_uploads_expires_at_idx" ON "pending_uploads" USING btree ("expires_at");