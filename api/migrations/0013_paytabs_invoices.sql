-- PayTabs' Invoices API (issue 23): a sent invoice is paid through the invoice PayTabs keeps
-- for it, under its `invoice_link`; voiding ours cancels PayTabs' by its id. `cart_id` is the
-- cart that PayTabs invoice names, as it was the hosted page's before.
ALTER TABLE invoices ADD COLUMN paytabs_invoice_id BIGINT;
ALTER TABLE invoices ADD COLUMN paytabs_invoice_link TEXT;
