ALTER TABLE "users" ADD COLUMN "calendar_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calendar_key_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "class_sessions" ADD COLUMN "reminded_starts_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "class_sessions_starts_idx" ON "class_sessions" USING btree ("starts_at") WHERE "class_sessions"."cancelled_at" is null;