CREATE TABLE "breakout_members" (
	"breakout_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"user_name" text NOT NULL,
	"group_index" integer NOT NULL,
	CONSTRAINT "breakout_members_breakout_id_user_id_pk" PRIMARY KEY("breakout_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "breakouts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "breakouts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"room_id" text NOT NULL,
	"session_id" integer,
	"opened_by" integer,
	"mode" text NOT NULL,
	"groups" integer NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "breakout_members" ADD CONSTRAINT "breakout_members_breakout_id_breakouts_id_fk" FOREIGN KEY ("breakout_id") REFERENCES "public"."breakouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breakout_members" ADD CONSTRAINT "breakout_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breakouts" ADD CONSTRAINT "breakouts_session_id_class_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."class_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breakouts" ADD CONSTRAINT "breakouts_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "breakout_members_user_idx" ON "breakout_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "breakouts_room_idx" ON "breakouts" USING btree ("room_id","id");