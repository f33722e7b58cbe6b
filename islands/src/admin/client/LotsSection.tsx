// The client page's credits by lot: each purchase, recorded payment or grant with its last
// day, and Extend (a later last day, with a reason) for the lots still live.
import { Suspense, useId, useState } from "react";
import type { LotView } from "../../api/types";
import { shortDate } from "../../lib/format";
import { canExtend, lotSource, lotState } from "../client-page";
import { ExtendLotDialog, preloadClientDialogs } from "./lazy";
import { DialogButton, RowActions } from "../parts";

const credits = (n: number) => `${n} ${n === 1 ? "credit" : "credits"}`;

function LotStatus({ lot }: { lot: LotView }) {
  const state = lotState(lot);
  if (state === "expired") return <span className="status-badge status-badge--danger">Expired {shortDate(lot.expiredAt ?? lot.expiresOn)}</span>;
  if (state === "used") return <span className="status-badge status-badge--warning">All used</span>;
  return <span className="status-badge status-badge--success">Active</span>;
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
      ) : lots === null ? (
        <p className="admin-muted" role="status">
          Loading the credits by lot…
        </p>
      ) : lots.length === 0 ? (
        <p className="admin-muted">No credits yet. Purchases, recorded payments and credits you add appear here with their last day.</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-title`}>
          <table className="data-table admin-table admin-lots">
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col" className="num">
                  Credits
                </th>
                <th scope="col" className="num">
                  Unused
                </th>
                <th scope="col">Last day</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {lots.map((lot) => (
                <tr key={lot.id}>
                  <td>
                    <div>
                      {lotSource(lot.source)}
                      <span className="admin-table__sub">{shortDate(lot.createdAt)}</span>
                    </div>
                  </td>
                  <td className="num">{lot.granted}</td>
                  <td className="num">{lot.remaining}</td>
                  <td className="nowrap">{shortDate(lot.expiresOn)}</td>
                  <td>
                    <LotStatus lot={lot} />
                  </td>
                  <td className="admin-table__actions">
                    <RowActions>
                      {canExtend(lot) ? (
                        <DialogButton className="btn btn--outline btn--sm" preload={preloadClientDialogs} onOpen={() => setExtending(lot)}>
                          Extend
                          <span className="visually-hidden">
                            {" "}
                            the {credits(lot.granted)} from {shortDate(lot.createdAt)}, usable through {shortDate(lot.expiresOn)}
                          </span>
                        </DialogButton>
                      ) : null}
                    </RowActions>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
