// Where to send an InstaPay or bank transfer, and the reference to write in its note: shown by
// the purchase dialog once the order is placed and by the dashboard while it waits. Addresses,
// the IBAN and the reference keep left-to-right order on an Arabic page.
import type { TransferView } from "../api/types";
import { formatMoney, longDateTime } from "../lib/format";
import { t } from "../lib/i18n";

export function TransferDetails({ transfer }: { transfer: TransferView }) {
  const rows: [string, string | null | undefined, boolean][] = [
    [t("common.transfer.amount"), formatMoney(transfer.amount), false],
    [t("common.transfer.reference"), transfer.reference, true],
    [t("common.transfer.instapay"), transfer.instapay, true],
    [t("common.transfer.iban"), transfer.iban, true],
    [t("common.transfer.accountName"), transfer.accountName, false],
    [t("common.transfer.bank"), transfer.bank, false],
  ];
  return (
    <>
      <dl className="transfer-details">
        {rows
          .filter(([, value]) => value)
          .map(([label, value, ltr]) => (
            <div key={label} className="transfer-details__row">
              <dt>{label}</dt>
              <dd>{ltr ? <bdi dir="ltr" className="ltr transfer-details__code">{value}</bdi> : value}</dd>
            </div>
          ))}
      </dl>
      <p className="transfer-details__until">{t("common.transfer.waitsUntil", { date: longDateTime(transfer.expiresAt) })}</p>
    </>
  );
}
