// The admin dashboard's Add Payment tab: the way to /admin/add-payment, and the accounting
// export (loaded with the dialogs, ./lazy).
import { Suspense } from "react";
import { ExportPanel } from "./lazy";

export function PaymentsTab() {
  return (
    <>
      <section className="panel admin-panel admin-cta" aria-labelledby="payments-title">
        <h2 className="panel__title" id="payments-title">
          Add Payment
        </h2>
        <p className="admin-panel__lead">
          Record a bank transfer, cash or other offline payment. The sessions it buys are added to the client's credits straight away.
        </p>
        <a className="btn btn--gold" href="/admin/add-payment">
          Add Payment
        </a>
      </section>
      <Suspense fallback={null}>
        <ExportPanel />
      </Suspense>
    </>
  );
}
