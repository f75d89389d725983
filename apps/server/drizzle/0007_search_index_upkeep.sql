-- Search's GIN indexes rebuilt with fastupdate off, so each row is indexed when written: with the
-- default pending list, every search read all the rows written since the last vacuum (up to 4 MB),
-- which made a search several times slower, and PGlite never vacuums on its own. A teacher's courses
-- by index (their sessions' scope, search by the teacher's name).
DROP INDEX "users_name_trgm_idx";--> statement-breakpoint
DROP INDEX "courses_name_trgm_idx";--> statement-breakpoint
DROP INDEX "courses_search_idx";--> statement-breakpoint
DROP INDEX "class_sessions_title_trgm_idx";--> statement-breakpoint
DROP INDEX "recordings_title_trgm_idx";--> statement-breakpoint
CREATE INDEX "courses_teacher_idx" ON "courses" USING btree ("teacher_id");--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "courses_name_trgm_idx" ON "courses" USING gin ("name" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "courses_search_idx" ON "courses" USING gin (to_tsvector('simple', "name" || ' ' || "description" || ' ' || "skills"::text)) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "class_sessions_title_trgm_idx" ON "class_sessions" USING gin ("title" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "recordings_title_trgm_idx" ON "recordings" USING gin ("title" gin_trgm_ops) WITH (fastupdate=false);