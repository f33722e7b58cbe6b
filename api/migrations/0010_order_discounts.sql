-- Discount codes on purchases (issue 22, item 4). An order priced with a code keeps the code and
-- what it took off: while the order is pending it holds one of the code's uses (so a code with
-- N uses never prices more than N orders at once), and its use is counted when it settles.
ALTER TABLE payment_transactions ADD COLUMN discount_code_id TEXT REFERENCES discount_codes (id) ON DELETE SET NULL;
ALTER TABLE payment_transactions ADD COLUMN discount_amount BIGINT NOT NULL DEFAULT 0
    CONSTRAINT payment_transactions_discount_check CHECK (discount_amount >= 0);
CREATE INDEX payment_transactions_discount_idx ON payment_transactions (discount_code_id, status);

-- The payment's record says the discount too, for its receipt and the accounting CSV: the code
-- as the client typed it (upper case) and the amount it took off, in minor units.
ALTER TABLE payment_records ADD COLUMN discount_code TEXT;
ALTER TABLE payment_records ADD COLUMN discount_amount BIGINT NOT NULL DEFAULT 0
    CONSTRAINT payment_records_discount_check CHECK (discount_amount >= 0);
