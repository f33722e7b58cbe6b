-- What the coach's status page (admin -> System, issue 24) shows and what its alerts remember:
-- the providers' webhooks, the scheduled jobs' last runs and the catalogue loads. Written by
-- `operations` beside the work it records, never in the transaction of that work, so a
-- recording that fails changes nothing else.

-- Each provider's last webhook (PayTabs' and Paymob's callbacks, Calendly's webhook), how
-- many in a row were refused or failed, and when the coach was told: once per incident, the
-- incident ending with the next delivery that is applied.
CREATE TABLE webhook_status (
    provider          TEXT PRIMARY KEY CONSTRAINT webhook_status_provider_check CHECK (provider IN ('paytabs', 'paymob', 'calendly')),
    last_at           TEXT NOT NULL,
    -- applied | ignored (accepted, nothing to apply, e.g. an unknown cart or client)
    -- | refused (answered 4xx: a bad signature, not JSON...) | failed (the API's own error).
    last_outcome      TEXT NOT NULL,
    last_reason       TEXT,
    failures_in_row   BIGINT NOT NULL DEFAULT 0,
    alerted_at        TEXT
);

-- The deliveries that were not applied (ignored, refused or failed), with their reason: the
-- newest 200 are kept.
CREATE TABLE webhook_refusals (
    id           TEXT PRIMARY KEY,
    provider     TEXT NOT NULL,
    received_at  TEXT NOT NULL,
    outcome      TEXT NOT NULL CONSTRAINT webhook_refusals_outcome_check CHECK (outcome IN ('ignored', 'refused', 'failed')),
    -- A code the status page translates: bad_signature, stale_signature, not_json,
    -- unexpected_shape, unknown_event, unknown_cart, unknown_client, no_credit,
    -- not_configured, error.
    reason       TEXT NOT NULL,
    -- What it was about (an event kind, a cart id), never the body or a secret.
    detail       TEXT
);
CREATE INDEX webhook_refusals_received_idx ON webhook_refusals (received_at);

-- Each scheduled job's last run: when, how it ended, how many things it did (credits removed,
-- reminders queued, payments settled...) or why it failed, and its last success.
CREATE TABLE job_runs (
    job             TEXT PRIMARY KEY,
    started_at      TEXT NOT NULL,
    finished_at     TEXT NOT NULL,
    outcome         TEXT NOT NULL CONSTRAINT job_runs_outcome_check CHECK (outcome IN ('ok', 'failed')),
    items           BIGINT,
    error           TEXT,
    last_ok_at      TEXT
);

-- Each catalogue an API process loaded from the site (at start, and when a page named a newer
-- version), and each load that failed; the newest 50 are kept.
CREATE TABLE catalogue_loads (
    id         TEXT PRIMARY KEY,
    at         TEXT NOT NULL,
    -- The version loaded; NULL for a failed load.
    version    TEXT,
    source     TEXT NOT NULL,
    error      TEXT
);
CREATE INDEX catalogue_loads_at_idx ON catalogue_loads (at);

-- The outbox's incident: set when the coach was told that mail has waited over an hour,
-- cleared when none waits that long any more, so one incident sends one alert.
CREATE TABLE operation_alerts (
    kind        TEXT PRIMARY KEY,
    alerted_at  TEXT NOT NULL
);
