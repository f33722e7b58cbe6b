-- The run-time data of the portal (spec §3) plus what the server needs to run it safely.
-- The same DDL runs on SQLite and PostgreSQL (one set of queries serves both), so there is
-- one folder; conventions:
--   * ids are TEXT (random, hex);
--   * timestamps are TEXT in UTC, RFC 3339 with microseconds and `Z`
--     (`2026-11-21T13:05:00.000000Z`), so they compare correctly as text;
--   * money is BIGINT minor units (piastres) with an ISO currency beside it;
--   * flags are INTEGER 0/1: sqlx's Any driver cannot decode SQLite's booleans, and PostgreSQL
--     will not take a bool into an INTEGER column, so code binds and reads i64;
--   * named constraints, so the API can map a violation to a clear 409.

CREATE TABLE users (
    id                  TEXT PRIMARY KEY,
    email               TEXT NOT NULL,             -- lower-cased at the boundary
    password_hash       TEXT,                      -- NULL until an admin-created user sets one
    email_confirmed_at  TEXT,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    CONSTRAINT users_email_key UNIQUE (email)
);

CREATE TABLE profiles (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    full_name   TEXT NOT NULL,
    email       TEXT NOT NULL,
    phone       TEXT,
    role        TEXT NOT NULL CONSTRAINT profiles_role_check CHECK (role IN ('admin', 'client')),
    created_at  TEXT NOT NULL,
    CONSTRAINT profiles_user_id_key UNIQUE (user_id)
);

-- One row per user. The totals change only together with a credit_ledger row, in one
-- transaction; the database itself refuses a negative balance.
CREATE TABLE client_accounts (
    user_id               TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    total_credits         BIGINT NOT NULL DEFAULT 0,
    used_credits          BIGINT NOT NULL DEFAULT 0,
    available_credits     BIGINT NOT NULL DEFAULT 0,
    last_payment_date     TEXT,
    show_payment_history  INTEGER NOT NULL DEFAULT 1 CONSTRAINT client_accounts_history_flag CHECK (show_payment_history IN (0, 1)),
    updated_at            TEXT NOT NULL,
    CONSTRAINT client_accounts_available_non_negative CHECK (available_credits >= 0),
    CONSTRAINT client_accounts_used_non_negative CHECK (used_credits >= 0),
    CONSTRAINT client_accounts_balance CHECK (available_credits = total_credits - used_credits)
);

-- Every change of credits: purchase, offline payment, booking debit, refund, adjustment.
-- external_ref is unique, so replaying the same event cannot change credits twice.
CREATE TABLE credit_ledger (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind          TEXT NOT NULL CONSTRAINT credit_ledger_kind_check CHECK (kind IN
                    ('purchase', 'offline_payment', 'booking_debit', 'booking_refund', 'admin_adjustment')),
    delta_total   BIGINT NOT NULL,
    delta_used    BIGINT NOT NULL,
    external_ref  TEXT NOT NULL,
    note          TEXT,
    created_at    TEXT NOT NULL,
    CONSTRAINT credit_ledger_external_ref_key UNIQUE (external_ref)
);
CREATE INDEX credit_ledger_user_idx ON credit_ledger (user_id, created_at);

-- Signed-in browsers. id is the SHA-256 of the cookie's token: a leaked table grants nothing.
CREATE TABLE sessions (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at       TEXT NOT NULL,
    last_seen_at     TEXT NOT NULL,
    idle_expires_at  TEXT NOT NULL,
    expires_at       TEXT NOT NULL,
    user_agent       TEXT,
    ip               TEXT
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Single-use emailed tokens (confirm email, reset or set a password), stored hashed.
CREATE TABLE auth_tokens (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose     TEXT NOT NULL CONSTRAINT auth_tokens_purpose_check CHECK (purpose IN
                  ('email_confirm', 'password_reset', 'set_password')),
    expires_at  TEXT NOT NULL,
    used_at     TEXT,
    created_at  TEXT NOT NULL
);
CREATE INDEX auth_tokens_user_idx ON auth_tokens (user_id, purpose);

-- A coaching session. client_id is NULL only for a Calendly booking by someone who is not a
-- client (kept pending for the admin). credit_debited says whether this booking holds a credit:
-- a reschedule moves it to the new booking instead of refunding and debiting again.
CREATE TABLE bookings (
    id                    TEXT PRIMARY KEY,
    client_id             TEXT REFERENCES users (id) ON DELETE CASCADE,
    session_date          TEXT NOT NULL,
    session_end           TEXT,
    status                TEXT NOT NULL CONSTRAINT bookings_status_check CHECK (status IN
                            ('confirmed', 'completed', 'cancelled', 'no_show', 'pending')),
    created_at            TEXT NOT NULL,
    cancelled_at          TEXT,
    google_meet_link      TEXT,
    session_notes         TEXT,
    source                TEXT NOT NULL CONSTRAINT bookings_source_check CHECK (source IN ('calendly', 'phone', 'admin')),
    credit_debited        INTEGER NOT NULL DEFAULT 0 CONSTRAINT bookings_credit_debited_flag CHECK (credit_debited IN (0, 1)),
    invitee_email         TEXT,
    invitee_name          TEXT,
    calendly_event_uri    TEXT,
    calendly_invitee_uri  TEXT,
    cancel_url            TEXT,
    reschedule_url        TEXT,
    reminder_sent_at      TEXT,
    created_by            TEXT REFERENCES users (id) ON DELETE SET NULL,
    CONSTRAINT bookings_calendly_invitee_key UNIQUE (calendly_invitee_uri)
);
CREATE INDEX bookings_client_idx ON bookings (client_id, session_date);
CREATE INDEX bookings_date_idx ON bookings (session_date);

CREATE TABLE payment_records (
    id                  TEXT PRIMARY KEY,
    client_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    amount              BIGINT NOT NULL CONSTRAINT payment_records_amount_check CHECK (amount >= 0),
    currency            TEXT NOT NULL,
    sessions_purchased  BIGINT NOT NULL CONSTRAINT payment_records_sessions_check CHECK (sessions_purchased >= 1),
    payment_date        TEXT NOT NULL,
    payment_method      TEXT NOT NULL,
    reference_number    TEXT,
    notes               TEXT,
    recorded_by         TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at          TEXT NOT NULL
);
CREATE INDEX payment_records_client_idx ON payment_records (client_id, payment_date);

CREATE TABLE payment_transactions (
    id                  TEXT PRIMARY KEY,
    client_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    cart_id             TEXT NOT NULL,
    status              TEXT NOT NULL CONSTRAINT payment_transactions_status_check CHECK (status IN ('pending', 'completed', 'failed')),
    package_id          TEXT NOT NULL,
    package_type        TEXT NOT NULL CONSTRAINT payment_transactions_type_check CHECK (package_type IN ('individual', 'group')),
    sessions_purchased  BIGINT NOT NULL,
    amount              BIGINT NOT NULL,
    currency            TEXT NOT NULL,
    tran_ref            TEXT,
    provider_status     TEXT,
    provider_payload    TEXT,
    customer_name       TEXT NOT NULL,
    customer_email      TEXT NOT NULL,
    customer_phone      TEXT NOT NULL,
    is_guest            INTEGER NOT NULL DEFAULT 0 CONSTRAINT payment_transactions_guest_flag CHECK (is_guest IN (0, 1)),
    credited_at         TEXT,
    flagged_reason      TEXT,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    CONSTRAINT payment_transactions_cart_id_key UNIQUE (cart_id),
    CONSTRAINT payment_transactions_tran_ref_key UNIQUE (tran_ref)
);
CREATE INDEX payment_transactions_client_idx ON payment_transactions (client_id, created_at);

CREATE TABLE contact_messages (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    email          TEXT NOT NULL,
    phone          TEXT,
    company        TEXT,
    message        TEXT NOT NULL,
    interested_in  TEXT,
    objective      TEXT,
    form_type      TEXT NOT NULL CONSTRAINT contact_messages_form_type_check CHECK (form_type IN ('general', 'discovery_call')),
    ip             TEXT,
    created_at     TEXT NOT NULL
);

CREATE TABLE newsletter_subscribers (
    id                      TEXT PRIMARY KEY,
    email                   TEXT NOT NULL,
    status                  TEXT NOT NULL CONSTRAINT newsletter_status_check CHECK (status IN ('pending', 'subscribed', 'unsubscribed')),
    confirm_token_hash      TEXT,
    confirm_expires_at      TEXT,
    -- Kept as is (not hashed): every newsletter must carry it, and it can only unsubscribe.
    unsubscribe_token       TEXT NOT NULL,
    consent_ip              TEXT,
    consent_source          TEXT,
    consent_at              TEXT,
    confirmed_at            TEXT,
    unsubscribed_at         TEXT,
    created_at              TEXT NOT NULL,
    updated_at              TEXT NOT NULL,
    CONSTRAINT newsletter_email_key UNIQUE (email),
    CONSTRAINT newsletter_confirm_token_key UNIQUE (confirm_token_hash),
    CONSTRAINT newsletter_unsubscribe_token_key UNIQUE (unsubscribe_token)
);

-- Email is sent by a background worker from here, with retries, so no request waits on SMTP.
CREATE TABLE email_outbox (
    id               TEXT PRIMARY KEY,
    to_address       TEXT NOT NULL,
    reply_to         TEXT,
    subject          TEXT NOT NULL,
    text_body        TEXT NOT NULL,
    html_body        TEXT NOT NULL,
    headers_json     TEXT NOT NULL DEFAULT '[]',
    -- [{"filename", "content_type", "content"}] with text content (e.g. an .ics invitation).
    attachments_json TEXT NOT NULL DEFAULT '[]',
    status           TEXT NOT NULL CONSTRAINT email_outbox_status_check CHECK (status IN ('pending', 'sent', 'failed')),
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_at  TEXT NOT NULL,
    locked_until     TEXT,
    last_error       TEXT,
    created_at       TEXT NOT NULL,
    sent_at          TEXT
);
CREATE INDEX email_outbox_due_idx ON email_outbox (status, next_attempt_at);

-- Provider events already applied (PayTabs, Calendly): recorded in the same transaction as
-- their effect, so a replay is recognised and changes nothing.
CREATE TABLE webhook_events (
    id           TEXT PRIMARY KEY,
    provider     TEXT NOT NULL,
    event_key    TEXT NOT NULL,
    received_at  TEXT NOT NULL,
    CONSTRAINT webhook_events_key UNIQUE (provider, event_key)
);
