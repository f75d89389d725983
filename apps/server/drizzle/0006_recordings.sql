CREATE TABLE "recording_views" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recording_views_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"recording_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"position_seconds" real DEFAULT 0 NOT NULL,
	"watched_spans" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"watched_seconds" real DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recordings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recordings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" integer,
	"course_id" integer,
	"room_id" text NOT NULL,
	"title" text NOT NULL,
	"recorded_by" integer NOT NULL,
	"source" text NOT NULL,
	"status" text NOT NULL,
	"storage_key" text,
	"mime_type" text DEFAULT 'video/webm' NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"duration_seconds" real DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_chunk_at" timestamp with time zone,
	"ready_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "recording_views" ADD CONSTRAINT "recording_views_recording_id_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_views" ADD CONSTRAINT "recording_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "recording_views_user_recording_idx" ON "recording_views" USING btree ("recording_id","user_id");--> statement-breakpoint
CREATE INDEX "recording_views_user_idx" ON "recording_views" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "recordings_course_idx" ON "recordings" USING btree ("course_id","created_at");--> statement-breakpoint
CREATE INDEX "recordings_room_idx" ON "recordings" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "recordings_status_idx" ON "recordings" USING btree ("status");--> statement-breakpoint
CREATE INDEX "recordings_title_trgm_idx" ON "recordings" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "recordings_one_live_per_room_idx" ON "recordings" USING btree ("room_id") WHERE "recordings"."status" = 'recording';