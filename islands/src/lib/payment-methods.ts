// How a payment's method reads on receipts and in the admin.
const METHODS: Record<string, string> = {
  card: "Card (online)",
  credit_card: "Credit card",
  bank_transfer: "Bank transfer",
  cash: "Cash",
  check: "Check",
  paypal: "PayPal",
  other: "Other",
};

export function methodLabel(method: string): string {
  return METHODS[method] ?? method.replace(/_/g, " ");
}
