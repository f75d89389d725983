-- Payments as admins see them (issue 32): when a pending order was last asked for (a created order
-- left alone is abandoned after a while), and the provider's latest failed payment of it and why.
ALTER TABLE "subscriptions" ADD COLUMN "ordered_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "failure_reason" text;--> statement-breakpoint
-- Orders made before: last asked for when they were made.
UPDATE "subscriptions" SET "ordered_at" = "created_at";
