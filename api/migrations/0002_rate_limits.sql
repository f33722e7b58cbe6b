-- Rate-limit windows shared by every API replica (PostgreSQL deployments; a SQLite deployment
-- is one process and counts in memory). One row per (scope, key): the window's start and the
-- attempts counted in it. Rows whose window ended are pruned as the API runs.
CREATE TABLE rate_limits (
    scope         TEXT NOT NULL,
    key           TEXT NOT NULL,
    window_start  TEXT NOT NULL,
    attempts      BIGINT NOT NULL,
    expires_at    TEXT NOT NULL,
    CONSTRAINT rate_limits_pkey PRIMARY KEY (scope, key)
);
CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at);
