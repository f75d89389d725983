-- Whiteboards of live classes (issue 37): each room's board, the Yjs updates of its pages, and the pages
-- saved as PNG for the session's students.
CREATE TABLE "whiteboard_snapshots" (
	"room_id" text NOT NULL,
	"page" integer NOT NULL,
	"png" "bytea" NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whiteboard_snapshots_room_id_page_pk" PRIMARY KEY("room_id","page")
);
--> statement-breakpoint
CREATE TABLE "whiteboard_updates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "whiteboard_updates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"room_id" text NOT NULL,
	"page" integer NOT NULL,
	"update" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whiteboards" (
	"room_id" text PRIMARY KEY NOT NULL,
	"session_id" integer,
	"shown" boolean DEFAULT false NOT NULL,
	"pages" integer DEFAULT 1 NOT NULL,
	"page" integer DEFAULT 0 NOT NULL,
	"access" text DEFAULT 'nobody' NOT NULL,
	"writers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whiteboard_snapshots" ADD CONSTRAINT "whiteboard_snapshots_room_id_whiteboards_room_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."whiteboards"("room_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whiteboard_updates" ADD CONSTRAINT "whiteboard_updates_room_id_whiteboards_room_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."whiteboards"("room_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whiteboards" ADD CONSTRAINT "whiteboards_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whiteboard_updates_page_idx" ON "whiteboard_updates" USING btree ("room_id","page","id");