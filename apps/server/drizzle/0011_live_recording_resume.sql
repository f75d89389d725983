-- Live recordings a recorder can go on with after a stall, a reload or a lost network (issue 32):
-- the offset of the chunks received apart from the file's size, the offset the file was made from,
-- whether its chunks are still kept for its recorder, and whether it stopped only because they stalled.
ALTER TABLE "recordings" ADD COLUMN "upload_offset" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "recordings" ADD COLUMN "made_from_bytes" bigint;--> statement-breakpoint
ALTER TABLE "recordings" ADD COLUMN "accepts_chunks" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recordings" ADD COLUMN "stalled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Live recordings under way keep their offset (until now held in size_bytes) and their chunks.
UPDATE "recordings" SET "upload_offset" = "size_bytes", "size_bytes" = 0, "accepts_chunks" = true WHERE "source" = 'live' AND "status" IN ('recording', 'processing');
