ALTER TABLE "courses" ADD COLUMN "batches_opened" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Courses that existed before batches get theirs opened from their lists at the next start.
UPDATE "courses" SET "batches_opened" = false;
