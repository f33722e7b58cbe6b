-- Credits that keep the site's promises (issue 14, points 1 and 3): every grant of credits is a
-- lot with an expiry date, bookings use the lot that expires first, unused credits leave
-- through a ledger row of their own at expiry, and a payment can be refunded.
--
-- Existing credits (an account that had credits before this migration) become one lot each
-- when the API starts (`credits::adopt_credits_without_lot`, run after the migrations: the
-- expiry date needs the clock and the coach's time zone, which portable SQL has not got).

-- The ledger learns two kinds: `expiry` (a lot's unused credits leaving at its expiry) and
-- `payment_refund` (a refunded payment's credits leaving, or coming back when PayTabs
-- declines the refund). SQLite cannot change a CHECK constraint, so the table is rebuilt;
-- the same statements run on PostgreSQL.
CREATE TABLE credit_ledger_new (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CONSTRAINT credit_ledger_kind_check_v2 CHECK (kind IN
                    ('purchase', 'offline_payment', 'booking_debit', 'booking_refund', 'admin_adjustment',
                     'expiry', 'payment_refund')),
    delta_total   BIGINT NOT NULL,
    delta_used    BIGINT NOT NULL,
    external_ref  TEXT NOT NULL,
    note          TEXT,
    created_at    TEXT NOT NULL,
    CONSTRAINT credit_ledger_external_ref_key_v2 UNIQUE (external_ref)
);
INSERT INTO credit_ledger_new (id, user_id, kind, delta_total, delta_used, external_ref, note, created_at)
    SELECT id, user_id, kind, delta_total, delta_used, external_ref, note, created_at FROM credit_ledger;
DROP TABLE credit_ledger;
ALTER TABLE credit_ledger_new RENAME TO credit_ledger;
CREATE INDEX credit_ledger_user_idx ON credit_ledger (user_id, created_at);

-- One grant of credits: a purchase, an offline payment, an admin's grant, or the credits an
-- account had before lots existed (source 'migrated'). `remaining` are its unused credits;
-- the sum of an account's remaining equals its available credits (`api ledger verify`).
-- `expires_on` is the last day the credits can be used, in the coach's time zone;
-- `expires_at` the UTC instant they leave (the start of the next local day).
CREATE TABLE credit_lots (
    id                 TEXT PRIMARY KEY,
    user_id            TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source             TEXT NOT NULL CONSTRAINT credit_lots_source_check CHECK (source IN
                         ('purchase', 'offline_payment', 'admin_adjustment', 'migrated')),
    -- The ledger row that granted it (its external_ref): one lot per grant.
    source_ref         TEXT NOT NULL,
    -- The payment_records row of a purchase or offline payment (refunds start from it).
    payment_record_id  TEXT,
    granted            BIGINT NOT NULL CONSTRAINT credit_lots_granted_check CHECK (granted >= 0),
    remaining          BIGINT NOT NULL CONSTRAINT credit_lots_remaining_check CHECK (remaining >= 0),
    expires_on         TEXT NOT NULL,
    expires_at         TEXT NOT NULL,
    -- Set once, by the sweep that removed the unused credits (or found none).
    expired_at         TEXT,
    -- The "credits expire in 14 days" email went out (cleared when the admin extends the lot).
    reminded_at        TEXT,
    created_at         TEXT NOT NULL,
    CONSTRAINT credit_lots_source_ref_key UNIQUE (source_ref)
);
CREATE INDEX credit_lots_user_idx ON credit_lots (user_id, expires_at);
CREATE INDEX credit_lots_due_idx ON credit_lots (expired_at, expires_at);

-- Which lots each ledger row moved, and by how much (a negative adjustment may take from
-- several lots). A lot's remaining equals the sum of its moves.
CREATE TABLE credit_lot_moves (
    id          TEXT PRIMARY KEY,
    ledger_id   TEXT REFERENCES credit_ledger (id) ON DELETE CASCADE,
    lot_id      TEXT NOT NULL REFERENCES credit_lots (id) ON DELETE CASCADE,
    delta       BIGINT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX credit_lot_moves_lot_idx ON credit_lot_moves (lot_id);
CREATE INDEX credit_lot_moves_ledger_idx ON credit_lot_moves (ledger_id);

-- An admin moved a lot's expiry later, with a reason (kept for the client's history).
CREATE TABLE credit_lot_extensions (
    id               TEXT PRIMARY KEY,
    lot_id           TEXT NOT NULL REFERENCES credit_lots (id) ON DELETE CASCADE,
    old_expires_on   TEXT NOT NULL,
    new_expires_on   TEXT NOT NULL,
    reason           TEXT NOT NULL,
    extended_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at       TEXT NOT NULL
);
CREATE INDEX credit_lot_extensions_lot_idx ON credit_lot_extensions (lot_id);

-- The lot a booking's credit came from, so cancelling gives it back to that same lot. A
-- reschedule carries it to the new booking.
ALTER TABLE bookings ADD COLUMN credit_lot_id TEXT;

-- A refund of a payment: online ones go to PayTabs (a follow-up `refund` on the sale's
-- tran_ref) and stay `pending` until PayTabs answers; offline ones are recorded as done.
-- The credits leave when the refund is asked for (so they cannot be booked meanwhile) and
-- come back if PayTabs declines it.
CREATE TABLE payment_refunds (
    id                 TEXT PRIMARY KEY,
    payment_record_id  TEXT NOT NULL REFERENCES payment_records (id) ON DELETE CASCADE,
    client_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    amount             BIGINT NOT NULL CONSTRAINT payment_refunds_amount_check CHECK (amount >= 0),
    currency           TEXT NOT NULL,
    credits            BIGINT NOT NULL CONSTRAINT payment_refunds_credits_check CHECK (credits >= 0),
    method             TEXT NOT NULL CONSTRAINT payment_refunds_method_check CHECK (method IN ('paytabs', 'offline')),
    status             TEXT NOT NULL CONSTRAINT payment_refunds_status_check CHECK (status IN ('pending', 'completed', 'failed')),
    -- PayTabs: our cart id for the follow-up, and its own tran_ref once known.
    cart_id            TEXT,
    tran_ref           TEXT,
    provider_status    TEXT,
    reason             TEXT,
    requested_by       TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at         TEXT NOT NULL,
    completed_at       TEXT,
    CONSTRAINT payment_refunds_cart_id_key UNIQUE (cart_id)
);
CREATE INDEX payment_refunds_record_idx ON payment_refunds (payment_record_id);
CREATE INDEX payment_refunds_client_idx ON payment_refunds (client_id, created_at);
