-- Paymob (issue 22): a refund of a payment made through Paymob goes to Paymob's refund API,
-- so a refund's method may be `paymob` as well as `paytabs` and `offline`. SQLite cannot
-- change a CHECK constraint, so the table is rebuilt (as 0004 did for the ledger); the same
-- statements run on PostgreSQL. A Paymob refund's `tran_ref` is Paymob's refund transaction
-- id, by which its callback finds it.
CREATE TABLE payment_refunds_new (
    id                 TEXT PRIMARY KEY,
    payment_record_id  TEXT NOT NULL REFERENCES payment_records (id) ON DELETE CASCADE,
    client_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    amount             BIGINT NOT NULL CONSTRAINT payment_refunds_amount_check_v2 CHECK (amount >= 0),
    currency           TEXT NOT NULL,
    credits            BIGINT NOT NULL CONSTRAINT payment_refunds_credits_check_v2 CHECK (credits >= 0),
    method             TEXT NOT NULL CONSTRAINT payment_refunds_method_check_v2 CHECK (method IN ('paytabs', 'paymob', 'offline')),
    status             TEXT NOT NULL CONSTRAINT payment_refunds_status_check_v2 CHECK (status IN ('pending', 'completed', 'failed')),
    cart_id            TEXT,
    tran_ref           TEXT,
    provider_status    TEXT,
    reason             TEXT,
    requested_by       TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at         TEXT NOT NULL,
    completed_at       TEXT,
    CONSTRAINT payment_refunds_cart_id_key_v2 UNIQUE (cart_id)
);
INSERT INTO payment_refunds_new (id, payment_record_id, client_id, amount, currency, credits, method, status, cart_id, tran_ref,
                                 provider_status, reason, requested_by, created_at, completed_at)
    SELECT id, payment_record_id, client_id, amount, currency, credits, method, status, cart_id, tran_ref,
           provider_status, reason, requested_by, created_at, completed_at FROM payment_refunds;
DROP TABLE payment_refunds;
ALTER TABLE payment_refunds_new RENAME TO payment_refunds;
CREATE INDEX payment_refunds_record_idx ON payment_refunds (payment_record_id);
CREATE INDEX payment_refunds_client_idx ON payment_refunds (client_id, created_at);
CREATE INDEX payment_refunds_tran_ref_idx ON payment_refunds (tran_ref);

-- Paymob's own order for one of ours (the intention's `intention_order_id`). Paymob signs a
-- transaction's `order.id` but not our `merchant_order_id`, so a notification is applied to
-- our order only when the order ids agree.
ALTER TABLE payment_transactions ADD COLUMN provider_order_id TEXT;
