-- Each user's learning time so far (schema/learning.ts learningTotals), kept by triggers whoever writes
-- attendance or watch_log (the meeting server, recordings, a course's deletion by cascade, scripts): a
-- dashboard reads the total here and cuts only the week's rows into days, so its cost stays flat as a
-- learner's history grows. Closed spans count from left_at - joined_at when positive (the rule in
-- modules/dashboards/learning-time.ts); open ones are read at each call, as they count up to now.
CREATE TABLE "learning_totals" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"live_seconds" numeric DEFAULT '0' NOT NULL,
	"watched_seconds" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "learning_totals" ADD CONSTRAINT "learning_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendance_user_left_idx" ON "attendance" USING btree ("user_id","left_at");--> statement-breakpoint
CREATE FUNCTION "learning_totals_add"(who integer, live numeric, watched numeric) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "learning_totals" ("user_id", "live_seconds", "watched_seconds") VALUES (who, live, watched)
  ON CONFLICT ("user_id") DO UPDATE SET
    "live_seconds" = "learning_totals"."live_seconds" + excluded."live_seconds",
    "watched_seconds" = "learning_totals"."watched_seconds" + excluded."watched_seconds";
$$;--> statement-breakpoint
CREATE FUNCTION "learning_totals_attendance"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."left_at" > OLD."joined_at" THEN
    PERFORM "learning_totals_add"(OLD."user_id", -extract(epoch FROM OLD."left_at" - OLD."joined_at"), 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."left_at" > NEW."joined_at" THEN
    PERFORM "learning_totals_add"(NEW."user_id", extract(epoch FROM NEW."left_at" - NEW."joined_at"), 0);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "learning_totals_watch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM "learning_totals_add"(OLD."user_id", 0, -OLD."seconds"::numeric);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM "learning_totals_add"(NEW."user_id", 0, NEW."seconds"::numeric);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "learning_totals_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'attendance' THEN
    UPDATE "learning_totals" SET "live_seconds" = 0;
  ELSE
    UPDATE "learning_totals" SET "watched_seconds" = 0;
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "attendance_learning_totals" AFTER INSERT OR UPDATE OF "user_id", "joined_at", "left_at" OR DELETE ON "attendance"
  FOR EACH ROW EXECUTE FUNCTION "learning_totals_attendance"();--> statement-breakpoint
CREATE TRIGGER "attendance_learning_totals_truncated" AFTER TRUNCATE ON "attendance"
  FOR EACH STATEMENT EXECUTE FUNCTION "learning_totals_truncated"();--> statement-breakpoint
CREATE TRIGGER "watch_log_learning_totals" AFTER INSERT OR UPDATE OF "user_id", "seconds" OR DELETE ON "watch_log"
  FOR EACH ROW EXECUTE FUNCTION "learning_totals_watch"();--> statement-breakpoint
CREATE TRIGGER "watch_log_learning_totals_truncated" AFTER TRUNCATE ON "watch_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "learning_totals_truncated"();--> statement-breakpoint
INSERT INTO "learning_totals" ("user_id", "live_seconds", "watched_seconds")
SELECT "user_id", sum("live"), sum("watched") FROM (
  SELECT "user_id", extract(epoch FROM "left_at" - "joined_at") AS "live", 0::numeric AS "watched" FROM "attendance" WHERE "left_at" > "joined_at"
  UNION ALL
  SELECT "user_id", 0, "seconds"::numeric FROM "watch_log"
) "history" GROUP BY "user_id";
