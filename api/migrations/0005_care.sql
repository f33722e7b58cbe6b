-- Cancellations by the client, the coach's view of one client (deactivation) and receipts.

-- Who cancelled a booking, for the 24-hour rule: 'client' (from the dashboard), 'invitee' (on
-- Calendly's own page), 'host' (the coach, on Calendly or in Booking Management). A late
-- client or invitee cancellation keeps its credit used (credit_debited stays 1) until the admin
-- waives it once; a host cancellation always gives the credit back.
ALTER TABLE bookings ADD COLUMN cancelled_by TEXT;
-- Set while the client's cancel is on its way to Calendly: Calendly reports an API
-- cancellation as the host's, and its webhook may land before our own answer, so the webhook
-- applies the client's rule (at the time they asked) to a booking marked here.
ALTER TABLE bookings ADD COLUMN client_cancel_requested_at TEXT;
-- When the admin waived a late cancellation (the credit came back once).
ALTER TABLE bookings ADD COLUMN late_cancel_waived_at TEXT;

-- A deactivated account cannot sign in and has no sessions; its history stays.
ALTER TABLE users ADD COLUMN deactivated_at TEXT;

-- One receipt per payment record, numbered 1, 2, 3… in the order payments were recorded and
-- never renumbered. The next number comes from `counters` (an UPDATE … RETURNING row lock
-- serializes two payments on PostgreSQL; SQLite has one writer), so numbers have no gaps from
-- concurrent inserts racing on MAX().
CREATE TABLE receipts (
    number             BIGINT PRIMARY KEY,
    payment_record_id  TEXT NOT NULL REFERENCES payment_records (id) ON DELETE CASCADE,
    issued_at          TEXT NOT NULL,
    CONSTRAINT receipts_payment_record_key UNIQUE (payment_record_id)
);

CREATE TABLE counters (
    name   TEXT PRIMARY KEY,
    value  BIGINT NOT NULL
);

-- Payments recorded before receipts existed get numbers in the order they were recorded.
INSERT INTO receipts (number, payment_record_id, issued_at)
SELECT ROW_NUMBER() OVER (ORDER BY created_at, id), id, created_at FROM payment_records;

INSERT INTO counters (name, value) SELECT 'receipt', COUNT(*) FROM receipts;
