-- Discount codes (issue 22, item 4): the admin creates a code worth a percentage or a fixed
-- amount off, for some packages or all, valid between two days, for a number of uses in all
-- and, if the admin says so, once per client. A purchase names the code; the API prices it
-- (`domain::discounts::apply`), keeps the use against the order's cart, and counts it.
--
-- Same statements on SQLite and PostgreSQL: TEXT ids and days, BIGINT money in minor units,
-- INTEGER 0/1 flags (see 0001), named constraints.

-- One code. `code` is stored upper case (the API normalises what the admin and the buyer
-- type), so the UNIQUE constraint is case-insensitive in effect on both databases.
-- Exactly one of `percent` and `amount_off` is set, the one of its `kind`.
-- `package_ids` lists the packages it applies to, comma-separated ('' = every package): a
-- short list read whole with the code, never queried by package.
-- `valid_from` and `valid_to` are days (YYYY-MM-DD) in the coach's time zone, both inclusive;
-- NULL leaves that end open. YYYY-MM-DD compares correctly as text.
-- `max_uses` NULL is unlimited; `uses` counts the purchases that used it.
CREATE TABLE discount_codes (
    id               TEXT PRIMARY KEY,
    code             TEXT NOT NULL CONSTRAINT discount_codes_code_upper CHECK (code = UPPER(code)),
    kind             TEXT NOT NULL CONSTRAINT discount_codes_kind_check CHECK (kind IN ('percent', 'fixed')),
    percent          BIGINT CONSTRAINT discount_codes_percent_check CHECK (percent BETWEEN 1 AND 100),
    amount_off       BIGINT CONSTRAINT discount_codes_amount_off_check CHECK (amount_off > 0),
    package_ids      TEXT NOT NULL DEFAULT '',
    valid_from       TEXT,
    valid_to         TEXT,
    max_uses         BIGINT CONSTRAINT discount_codes_max_uses_check CHECK (max_uses >= 1),
    uses             BIGINT NOT NULL DEFAULT 0 CONSTRAINT discount_codes_uses_check CHECK (uses >= 0),
    once_per_client  INTEGER NOT NULL DEFAULT 0 CONSTRAINT discount_codes_once_flag CHECK (once_per_client IN (0, 1)),
    is_active        INTEGER NOT NULL DEFAULT 1 CONSTRAINT discount_codes_active_flag CHECK (is_active IN (0, 1)),
    created_by       TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    CONSTRAINT discount_codes_value_check CHECK (
        (kind = 'percent' AND percent IS NOT NULL AND amount_off IS NULL)
        OR (kind = 'fixed' AND amount_off IS NOT NULL AND percent IS NULL)),
    CONSTRAINT discount_codes_dates_check CHECK (
        valid_from IS NULL OR valid_to IS NULL OR valid_to >= valid_from),
    CONSTRAINT discount_codes_code_key UNIQUE (code)
);

-- One use of a code: the order (its cart id) it priced, the client and what it took off (minor
-- units). One row per code and order, so a replayed order cannot use a code twice; the index
-- answers "has this client used this code" for once-per-client codes.
CREATE TABLE discount_code_uses (
    id          TEXT PRIMARY KEY,
    code_id     TEXT NOT NULL REFERENCES discount_codes (id) ON DELETE CASCADE,
    client_id   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    cart_id     TEXT NOT NULL,
    amount_off  BIGINT NOT NULL,
    created_at  TEXT NOT NULL,
    CONSTRAINT discount_code_uses_cart_key UNIQUE (code_id, cart_id)
);
CREATE INDEX discount_code_uses_client_idx ON discount_code_uses (code_id, client_id);
