CREATE TABLE "publisher_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"publisher_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "publisher_invitations_role" CHECK ("publisher_invitations"."role" in ('owner', 'member')),
	CONSTRAINT "publisher_invitations_email_lowercase" CHECK ("publisher_invitations"."email" = lower("publisher_invitations"."email"))
);
--> statement-breakpoint
ALTER TABLE "publisher_invitations" ADD CONSTRAINT "publisher_invitations_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publisher_invitations" ADD CONSTRAINT "publisher_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "publisher_invitations_publisher_email_idx" ON "publisher_invitations" USING btree ("publisher_id","email");--> statement-breakpoint
CREATE INDEX "publisher_invitations_email_idx" ON "publisher_invitations" USING btree ("email");