// One sponsor: its details (Edit, Archive), its engagements with New engagement, and its
// usage report links.
import { useEffect, useState } from "react";
import type { ClientRow } from "../../api/types";
import { formatMoney, shortDate } from "../../lib/format";
import { t } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { listEngagements } from "../../sponsors/api";
import type { EngagementView, SponsorView } from "../../sponsors/types";
import { ArrowLeftIcon, DialogButton, PlusIcon } from "../parts";
import { type Column, Table } from "../Table";
import { EngagementDialog } from "./EngagementDialog";
import { ReportLinks } from "./ReportLinks";
import { ArchivedBadge } from "./SponsorsTable";
import { invoiceStatusLabel, invoiceTone } from "./views";

export function BackButton({ onClick, children }: { onClick: () => void; children: string }) {
  return (
    <button type="button" className="btn btn--outline btn--sm admin-back" onClick={onClick}>
      <ArrowLeftIcon />
      {children}
    </button>
  );
}

export function InvoiceBadge({ status }: { status: string }) {
  return <span className={`status-badge status-badge--${invoiceTone(status)}`}>{invoiceStatusLabel(status)}</span>;
}

function Details({ sponsor }: { sponsor: SponsorView }) {
  const rows: [string, string | null | undefined, boolean?][] = [
    [t("admin.sponsors.field.contactName"), sponsor.contactName],
    [t("admin.sponsors.field.contactEmail"), sponsor.contactEmail, true],
    [t("admin.sponsors.field.phone"), sponsor.contactPhone, true],
    [t("admin.sponsors.field.address"), sponsor.address],
    [t("admin.sponsors.field.taxId"), sponsor.taxId, true],
    [t("admin.sponsors.field.notes"), sponsor.notes],
  ];
  return (
    <dl className="transfer-details sponsors-details">
      {rows
        .filter(([, v]) => v)
        .map(([k, v, ltr]) => (
          <div className="transfer-details__row" key={k}>
            <dt>{k}</dt>
            <dd>
              <bdi dir={ltr ? "ltr" : "auto"}>{v}</bdi>
            </dd>
          </div>
        ))}
    </dl>
  );
}

function columns(onOpen: (e: EngagementView) => void): Column<EngagementView>[] {
  return [
    {
      header: t("admin.sponsors.col.engagement"),
      rowHeader: true,
      className: "admin-table__name",
      cell: (e) => (
        <>
          <button type="button" className="link-button" onClick={() => onOpen(e)}>
            {e.title}
          </button>
          <span className="admin-table__sub">{t("admin.sponsors.startsOn", { date: shortDate(e.startsOn) })}</span>
        </>
      ),
    },
    { header: t("admin.sponsors.col.credits"), numeric: true, cell: (e) => e.credits },
    { header: t("admin.sponsors.col.allocated"), note: t("admin.sponsors.col.allocatedNote"), label: t("admin.sponsors.col.allocated"), numeric: true, className: "nowrap", cell: (e) => `${e.allocated} / ${e.pool}` },
    { header: t("admin.sponsors.col.price"), numeric: true, className: "nowrap", cell: (e) => formatMoney(e.price) },
    { header: t("admin.sponsors.col.released"), cell: (e) => (e.released ? t("admin.sponsors.yes") : t("admin.sponsors.no")) },
    {
      header: t("admin.sponsors.col.invoice"),
      className: "nowrap",
      cell: (e) => (
        <>
          <span dir="ltr">{e.invoice.number}</span> <InvoiceBadge status={e.invoice.status} />
        </>
      ),
    },
    {
      header: t("admin.sponsors.col.actions"),
      hiddenHeader: true,
      className: "admin-table__actions",
      cell: (e) => (
        <button type="button" className="btn btn--navy btn--sm" onClick={() => onOpen(e)}>
          {t("admin.sponsors.manage")}
          <span className="visually-hidden"> {e.title}</span>
        </button>
      ),
    },
  ];
}

export function SponsorPage(props: {
  sponsor: SponsorView;
  clients: ClientRow[];
  onBack: () => void;
  onEdit: () => void;
  onArchive: () => void;
  onOpen: (engagementId: string) => void;
  /** An engagement was created: the sponsor's counts changed. */
  onChanged: () => void;
}) {
  const { sponsor } = props;
  const [engagements, setEngagements] = useState<EngagementView[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [creating, setCreating] = useState(false);

  const load = () => {
    setFailed(false);
    listEngagements(sponsor.id)
      .then(setEngagements)
      .catch(() => {
        setFailed(true);
        toast.error(t("common.error.title"), { description: t("admin.sponsors.engagementsFailed") });
      });
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(load, [sponsor.id]);

  const archived = !!sponsor.archivedAt;
  return (
    <div className="admin-stack">
      <BackButton onClick={props.onBack}>{t("admin.sponsors.backToList")}</BackButton>
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id="sponsors-page-title" tabIndex={-1}>
            {sponsor.name} {archived ? <ArchivedBadge /> : null}
          </h2>
          <p className="admin-panel__lead">{t("admin.sponsors.since", { date: shortDate(sponsor.createdAt) })}</p>
        </div>
        <div className="admin-form__actions">
          <DialogButton className="btn btn--outline btn--sm" preload={() => undefined} onOpen={props.onEdit}>
            {t("admin.sponsors.edit")}
          </DialogButton>
          {archived ? null : (
            <DialogButton className="btn btn--sm admin-btn--danger-outline" preload={() => undefined} onOpen={props.onArchive}>
              {t("admin.sponsors.archive")}
            </DialogButton>
          )}
        </div>
      </div>
      <Details sponsor={sponsor} />

      <section className="admin-stack" aria-labelledby="sponsor-engagements-title">
        <div className="admin-panel__head">
          <h3 className="admin-client__subtitle" id="sponsor-engagements-title">
            {t("admin.sponsors.engagements")}
          </h3>
          {archived ? (
            <p className="admin-muted">{t("admin.sponsors.archivedNoNew")}</p>
          ) : (
            <DialogButton className="btn btn--navy btn--sm" preload={() => undefined} onOpen={() => setCreating(true)}>
              <PlusIcon />
              {t("admin.sponsors.newEngagement")}
            </DialogButton>
          )}
        </div>
        {failed ? (
          <div className="notice notice--error" role="alert">
            {t("admin.sponsors.engagementsFailed")}{" "}
            <button type="button" className="link-button" onClick={load}>
              {t("common.tryAgain")}
            </button>
          </div>
        ) : (
          <Table
            labelledBy="sponsor-engagements-title"
            columns={columns((e) => props.onOpen(e.id))}
            rows={engagements}
            rowKey={(e) => e.id}
            loadingRow={t("admin.sponsors.engagementsLoading")}
            empty={
              <div className="empty">
                <p className="empty__title">{t("admin.sponsors.noEngagements")}</p>
                <p>{t("admin.sponsors.noEngagementsText")}</p>
              </div>
            }
          />
        )}
      </section>

      <ReportLinks sponsorId={sponsor.id} />

      {creating ? (
        <EngagementDialog
          sponsor={sponsor}
          clients={props.clients}
          onClose={() => setCreating(false)}
          onCreated={(e) => {
            setEngagements((list) => [e, ...(list ?? [])]);
            setCreating(false);
            props.onChanged();
          }}
        />
      ) : null}
    </div>
  );
}
