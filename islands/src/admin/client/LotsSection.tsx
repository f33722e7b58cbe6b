// The client page's credits by lot: each purchase, recorded payment or grant with its last
// day, and Extend (a later last day, with a reason) for the lots still live.
import { Suspense, useId, useState } from "react";
import type { LotView } from "../../api/types";
import { shortDate } from "../../lib/format";
import { DialogButton, RowActions } from "../parts";
import { type Column, Table } from "../Table";
import { ExtendLotDialog, preloadClientDialogs } from "./lazy";
import { canExtend, lotSource, lotState } from "./views";

const credits = (n: number) => `${n} ${n === 1 ? "credit" : "credits"}`;

function LotStatus({ lot }: { lot: LotView }) {
  const state = lotState(lot);
  if (state === "expired") return <span className="status-badge status-badge--danger">Expired {shortDate(lot.expiredAt ?? lot.expiresOn)}</span>;
  if (state === "used") return <span className="status-badge status-badge--warning">All used</span>;
  return <span className="status-badge status-badge--success">Active</span>;
}

function columns(onExtend: (lot: LotView) => void): Column<LotView>[] {
  return [
    {
      header: "From",
      cell: (lot) => (
        <div>
          {lotSource(lot.source)}
          <span className="admin-table__sub">{shortDate(lot.createdAt)}</span>
        </div>
      ),
    },
    { header: "Credits", numeric: true, cell: (lot) => lot.granted },
    { header: "Unused", numeric: true, cell: (lot) => lot.remaining },
    { header: "Last day", className: "nowrap", cell: (lot) => shortDate(lot.expiresOn) },
    { header: "Status", cell: (lot) => <LotStatus lot={lot} /> },
    {
      header: "Actions",
      hiddenHeader: true,
      className: "admin-table__actions",
      cell: (lot) => (
        <RowActions>
          {canExtend(lot) ? (
            <DialogButton className="btn btn--outline btn--sm" preload={preloadClientDialogs} onOpen={() => onExtend(lot)}>
              Extend
              <span className="visually-hidden">
                {" "}
                the {credits(lot.granted)} from {shortDate(lot.createdAt)}, usable through {shortDate(lot.expiresOn)}
              </span>
            </DialogButton>
          ) : null}
        </RowActions>
      ),
    },
  ];
}

export function LotsSection(props: { lots: LotView[] | null; failed: string | null; onRetry: () => void; onExtended: (lot: LotView) => void }) {
  const id = useId();
  const [extending, setExtending] = useState<LotView | null>(null);
  const { lots } = props;

  return (
    <div className="admin-client__lots">
      <h3 className="admin-client__subtitle" id={`${id}-title`}>
        Credits by lot
      </h3>
      {props.failed ? (
        <div className="notice notice--error" role="alert">
          {props.failed}{" "}
          <button type="button" className="link-button" onClick={props.onRetry}>
            Try again
          </button>
        </div>
      ) : (
        <Table
          labelledBy={`${id}-title`}
          className="admin-lots"
          columns={columns(setExtending)}
          rows={lots}
          rowKey={(lot) => lot.id}
          loading={
            <p className="admin-muted" role="status">
              Loading the credits by lot…
            </p>
          }
          empty={<p className="admin-muted">No credits yet. Purchases, recorded payments and credits you add appear here with their last day.</p>}
        />
      )}
      {extending ? (
        <Suspense fallback={null}>
          <ExtendLotDialog
            lot={extending}
            onClose={() => setExtending(null)}
            onExtended={(lot) => {
              props.onExtended(lot);
              setExtending(null);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
