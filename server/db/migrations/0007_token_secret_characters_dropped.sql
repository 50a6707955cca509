ALTER TABLE "personal_access_tokens" DROP COLUMN "token_prefix";--> statement-breakpoint
ALTER TABLE "personal_access_tokens" DROP COLUMN "token_suffix";