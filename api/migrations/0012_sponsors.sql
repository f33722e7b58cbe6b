-- Companies that pay for their executives' coaching (issue 23): sponsors, their engagements
-- (credits bought for named executives or a pool), each engagement's invoice in its own number
-- series, and the signed links that show a sponsor its usage report.

CREATE TABLE sponsors (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    contact_name   TEXT NOT NULL,
    contact_email  TEXT NOT NULL,
    contact_phone  TEXT,
    address        TEXT,
    tax_id         TEXT,
    -- The admin's own notes: never shown to the sponsor or the executives.
    notes          TEXT,
    -- The language of the emails to the billing contact and the invited executives.
    language       TEXT NOT NULL DEFAULT 'en',
    archived_at    TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);

CREATE TABLE engagements (
    id               TEXT PRIMARY KEY,
    sponsor_id       TEXT NOT NULL REFERENCES sponsors (id),
    title            TEXT NOT NULL,
    credits          BIGINT NOT NULL CONSTRAINT engagements_credits_check CHECK (credits >= 1),
    price            BIGINT NOT NULL CONSTRAINT engagements_price_check CHECK (price >= 0),
    currency         TEXT NOT NULL,
    validity_months  BIGINT NOT NULL,
    starts_on        TEXT NOT NULL,
    -- When the credits went to the executives: the invoice paid, or the admin released them
    -- on credit before it was.
    released_at      TEXT,
    created_by       TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at       TEXT NOT NULL
);
CREATE INDEX engagements_sponsor_idx ON engagements (sponsor_id, created_at);

-- An executive of an engagement: an existing client, or an email invited to sign up (joined
-- when the account with that email confirms it). `credits` are theirs out of the engagement's;
-- the rest is the pool.
CREATE TABLE engagement_members (
    id             TEXT PRIMARY KEY,
    engagement_id  TEXT NOT NULL REFERENCES engagements (id) ON DELETE CASCADE,
    client_id      TEXT REFERENCES users (id) ON DELETE SET NULL,
    email          TEXT NOT NULL,
    credits        BIGINT NOT NULL CONSTRAINT engagement_members_credits_check CHECK (credits >= 0),
    -- How many of them reached the executive's account as lots (the rest wait for the invoice,
    -- or for the invited executive to join).
    granted        BIGINT NOT NULL DEFAULT 0 CONSTRAINT engagement_members_granted_check CHECK (granted >= 0),
    joined_at      TEXT,
    created_at     TEXT NOT NULL,
    CONSTRAINT engagement_members_email_key UNIQUE (engagement_id, email)
);
CREATE INDEX engagement_members_client_idx ON engagement_members (client_id);
CREATE INDEX engagement_members_email_idx ON engagement_members (email);

-- Unused engagement credits the admin moved from one executive to another, with the reason.
CREATE TABLE engagement_moves (
    id             TEXT PRIMARY KEY,
    engagement_id  TEXT NOT NULL REFERENCES engagements (id) ON DELETE CASCADE,
    from_client    TEXT REFERENCES users (id) ON DELETE SET NULL,
    to_client      TEXT REFERENCES users (id) ON DELETE SET NULL,
    credits        BIGINT NOT NULL CONSTRAINT engagement_moves_credits_check CHECK (credits >= 1),
    reason         TEXT NOT NULL,
    moved_by       TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at     TEXT NOT NULL
);
CREATE INDEX engagement_moves_engagement_idx ON engagement_moves (engagement_id);

-- An engagement's invoice: numbered in its own series (INV-000001), with the amounts as
-- issued (VAT from the settings' rate at the time, in basis points: 1400 is 14 %). The number
-- comes from the `invoice` counter, whose row is the lock, as receipts' does.
INSERT INTO counters (name, value) VALUES ('invoice', 0);
CREATE TABLE invoices (
    id              TEXT PRIMARY KEY,
    engagement_id   TEXT NOT NULL REFERENCES engagements (id) ON DELETE CASCADE,
    number          BIGINT NOT NULL,
    status          TEXT NOT NULL CONSTRAINT invoices_status_check CHECK (status IN ('draft', 'sent', 'paid', 'overdue', 'void')),
    subtotal        BIGINT NOT NULL,
    vat_rate_bp     BIGINT,
    vat             BIGINT NOT NULL,
    total           BIGINT NOT NULL,
    currency        TEXT NOT NULL,
    issued_on       TEXT NOT NULL,
    due_on          TEXT NOT NULL,
    -- PayTabs: the cart id of the latest hosted page, and the paying transaction.
    cart_id         TEXT,
    tran_ref        TEXT,
    paid_at         TEXT,
    paid_via        TEXT,
    bank_reference  TEXT,
    sent_at         TEXT,
    reminded_at     TEXT,
    voided_at       TEXT,
    created_at      TEXT NOT NULL,
    CONSTRAINT invoices_engagement_key UNIQUE (engagement_id),
    CONSTRAINT invoices_number_key UNIQUE (number),
    CONSTRAINT invoices_cart_key UNIQUE (cart_id)
);
CREATE INDEX invoices_status_idx ON invoices (status, due_on);

-- A sponsor's usage report link, until it expires or is revoked. The link carries the row's id
-- signed with the API's secret (APP_SECRET), as the invoice's link carries the invoice's.
CREATE TABLE sponsor_report_links (
    id          TEXT PRIMARY KEY,
    sponsor_id  TEXT NOT NULL REFERENCES sponsors (id) ON DELETE CASCADE,
    expires_at  TEXT NOT NULL,
    revoked_at  TEXT,
    created_by  TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX sponsor_report_links_sponsor_idx ON sponsor_report_links (sponsor_id, created_at);

-- The ledger learns `engagement_grant` (an engagement's credits reaching an executive) and
-- `engagement_move` (moved between two executives of one engagement); a lot may come from an
-- engagement and names it. SQLite cannot change a CHECK constraint, so both tables are rebuilt
-- (as 0004 did); the two tables that reference them are set aside first and restored after,
-- so nothing cascades. The same statements run on PostgreSQL.
CREATE TABLE keep_lot_moves AS SELECT id, ledger_id, lot_id, delta, created_at FROM credit_lot_moves;
CREATE TABLE keep_lot_extensions AS
    SELECT id, lot_id, old_expires_on, new_expires_on, reason, extended_by, created_at FROM credit_lot_extensions;
DROP TABLE credit_lot_moves;
DROP TABLE credit_lot_extensions;

CREATE TABLE credit_ledger_v3 (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CONSTRAINT credit_ledger_kind_check_v3 CHECK (kind IN
                    ('purchase', 'offline_payment', 'booking_debit', 'booking_refund', 'admin_adjustment',
                     'expiry', 'payment_refund', 'engagement_grant', 'engagement_move')),
    delta_total   BIGINT NOT NULL,
    delta_used    BIGINT NOT NULL,
    external_ref  TEXT NOT NULL,
    note          TEXT,
    created_at    TEXT NOT NULL,
    CONSTRAINT credit_ledger_external_ref_key_v3 UNIQUE (external_ref)
);
INSERT INTO credit_ledger_v3 (id, user_id, kind, delta_total, delta_used, external_ref, note, created_at)
    SELECT id, user_id, kind, delta_total, delta_used, external_ref, note, created_at FROM credit_ledger;
DROP TABLE credit_ledger;
ALTER TABLE credit_ledger_v3 RENAME TO credit_ledger;
CREATE INDEX credit_ledger_user_idx ON credit_ledger (user_id, created_at);

CREATE TABLE credit_lots_v2 (
    id                 TEXT PRIMARY KEY,
    user_id            TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source             TEXT NOT NULL CONSTRAINT credit_lots_source_check_v2 CHECK (source IN
                         ('purchase', 'offline_payment', 'admin_adjustment', 'migrated', 'engagement')),
    source_ref         TEXT NOT NULL,
    payment_record_id  TEXT,
    -- The engagement whose credits these are (source `engagement`).
    engagement_id      TEXT,
    granted            BIGINT NOT NULL CONSTRAINT credit_lots_granted_check_v2 CHECK (granted >= 0),
    remaining          BIGINT NOT NULL CONSTRAINT credit_lots_remaining_check_v2 CHECK (remaining >= 0),
    expires_on         TEXT NOT NULL,
    expires_at         TEXT NOT NULL,
    expired_at         TEXT,
    reminded_at        TEXT,
    created_at         TEXT NOT NULL,
    CONSTRAINT credit_lots_source_ref_key_v2 UNIQUE (source_ref)
);
INSERT INTO credit_lots_v2 (id, user_id, source, source_ref, payment_record_id, granted, remaining, expires_on, expires_at,
                            expired_at, reminded_at, created_at)
    SELECT id, user_id, source, source_ref, payment_record_id, granted, remaining, expires_on, expires_at,
           expired_at, reminded_at, created_at FROM credit_lots;
DROP TABLE credit_lots;
ALTER TABLE credit_lots_v2 RENAME TO credit_lots;
CREATE INDEX credit_lots_user_idx ON credit_lots (user_id, expires_at);
CREATE INDEX credit_lots_due_idx ON credit_lots (expired_at, expires_at);
CREATE INDEX credit_lots_engagement_idx ON credit_lots (engagement_id);

CREATE TABLE credit_lot_moves (
    id          TEXT PRIMARY KEY,
    ledger_id   TEXT REFERENCES credit_ledger (id) ON DELETE CASCADE,
    lot_id      TEXT NOT NULL REFERENCES credit_lots (id) ON DELETE CASCADE,
    delta       BIGINT NOT NULL,
    created_at  TEXT NOT NULL
);
INSERT INTO credit_lot_moves (id, ledger_id, lot_id, delta, created_at)
    SELECT id, ledger_id, lot_id, delta, created_at FROM keep_lot_moves;
DROP TABLE keep_lot_moves;
CREATE INDEX credit_lot_moves_lot_idx ON credit_lot_moves (lot_id);
CREATE INDEX credit_lot_moves_ledger_idx ON credit_lot_moves (ledger_id);

CREATE TABLE credit_lot_extensions (
    id               TEXT PRIMARY KEY,
    lot_id           TEXT NOT NULL REFERENCES credit_lots (id) ON DELETE CASCADE,
    old_expires_on   TEXT NOT NULL,
    new_expires_on   TEXT NOT NULL,
    reason           TEXT NOT NULL,
    extended_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at       TEXT NOT NULL
);
INSERT INTO credit_lot_extensions (id, lot_id, old_expires_on, new_expires_on, reason, extended_by, created_at)
    SELECT id, lot_id, old_expires_on, new_expires_on, reason, extended_by, created_at FROM keep_lot_extensions;
DROP TABLE keep_lot_extensions;
CREATE INDEX credit_lot_extensions_lot_idx ON credit_lot_extensions (lot_id);
