// The client page's credits by lot: each purchase, recorded payment or grant with its last
// day, and Extend (a later last day, with a reason) for the lots still live.
import { Suspense, useId, useState } from "react";
import type { LotView } from "../../api/types";
import { credits, shortDate } from "../../lib/format";
import { t } from "../../lib/i18n";
import { DialogButton, RowActions } from "../parts";
import { type Column, Table } from "../Table";
import { ExtendLotDialog, preloadClientDialogs } from "./lazy";
import { canExtend, engagementOf, lotSource, lotState } from "./views";

function LotStatus({ lot }: { lot: LotView }) {
  const state = lotState(lot);
  if (state === "expired") return <span className="status-badge status-badge--danger">{t("adminClient.lots.expired", { date: shortDate(lot.expiredAt ?? lot.expiresOn) })}</span>;
  if (state === "used") return <span className="status-badge status-badge--warning">{t("adminClient.lots.allUsed")}</span>;
  return <span className="status-badge status-badge--success">{t("adminClient.active")}</span>;
}

function columns(onExtend: (lot: LotView) => void): Column<LotView>[] {
  return [
    {
      header: t("adminClient.col.from"),
      cell: (lot) => (
        <div>
          {lotSource(lot.source, engagementOf(lot))}
          <span className="admin-table__sub">{shortDate(lot.createdAt)}</span>
        </div>
      ),
    },
    { header: t("adminClient.col.credits"), numeric: true, cell: (lot) => lot.granted },
    { header: t("adminClient.col.unused"), numeric: true, cell: (lot) => lot.remaining },
    { header: t("adminClient.col.lastDay"), className: "nowrap", cell: (lot) => shortDate(lot.expiresOn) },
    { header: t("admin.col.status"), cell: (lot) => <LotStatus lot={lot} /> },
    {
      header: t("admin.col.actions"),
      hiddenHeader: true,
      className: "admin-table__actions",
      cell: (lot) => (
        <RowActions>
          {canExtend(lot) ? (
            <DialogButton className="btn btn--outline btn--sm" preload={preloadClientDialogs} onOpen={() => onExtend(lot)}>
              {t("adminClient.extend")}
              <span className="visually-hidden">
                {t("adminClient.lots.extendHidden", { credits: credits(lot.granted), from: shortDate(lot.createdAt), until: shortDate(lot.expiresOn) })}
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
        {t("adminClient.lots.title")}
      </h3>
      {props.failed ? (
        <div className="notice notice--error" role="alert">
          {props.failed}{" "}
          <button type="button" className="link-button" onClick={props.onRetry}>
            {t("common.tryAgain")}
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
              {t("adminClient.lots.loading")}
            </p>
          }
          empty={<p className="admin-muted">{t("adminClient.lots.none")}</p>}
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
