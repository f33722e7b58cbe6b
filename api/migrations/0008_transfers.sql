-- Every way Egyptians pay (issue 22). An online order now says which provider it went to:
-- PayTabs (every order before this migration), Paymob, or a transfer (InstaPay or bank) that the
-- coach confirms by hand, since InstaPay has no merchant API.
ALTER TABLE payment_transactions ADD COLUMN provider TEXT NOT NULL DEFAULT 'paytabs'
    CONSTRAINT payment_transactions_provider_check CHECK (provider IN ('paytabs', 'paymob', 'transfer'));

-- A transfer order's short reference, which the client writes in the transfer's note, and the
-- moment it lapses unless the coach has confirmed it.
ALTER TABLE payment_transactions ADD COLUMN transfer_reference TEXT;
ALTER TABLE payment_transactions ADD COLUMN expires_at TEXT;
CREATE UNIQUE INDEX payment_transactions_transfer_reference_key ON payment_transactions (transfer_reference);

-- Who confirmed a transfer, and the bank's or InstaPay's reference they saw (optional).
ALTER TABLE payment_transactions ADD COLUMN confirmed_by TEXT REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE payment_transactions ADD COLUMN bank_reference TEXT;

-- The admin's list of transfers waiting for confirmation.
CREATE INDEX payment_transactions_pending_transfers_idx ON payment_transactions (provider, status, created_at);
