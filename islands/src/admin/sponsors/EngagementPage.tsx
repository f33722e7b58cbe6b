// One engagement: its figures (credits, given, pool, price), where its credits stand (Release
// credits now, on credit), its executives with Give credits from the pool and Move credits, the
// credit moves, and its invoice.
import { useEffect, useState } from "react";
import type { ClientRow } from "../../api/types";
import { formatMoney, shortDate } from "../../lib/format";
import { t } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { getEngagement, releaseCredits } from "../../sponsors/api";
import type { EngagementMember, EngagementMove, EngagementView, SponsorView } from "../../sponsors/types";
import { ConfirmDialog } from "../dialog";
import { DialogButton } from "../parts";
import { type Column, Table } from "../Table";
import { AllocateDialog, MoveDialog } from "./ActionDialogs";
import { InvoicePanel } from "./InvoicePanel";
import { movable } from "./rules";
import { BackButton } from "./SponsorPage";
import { canRelease, errorText, memberName, releaseState } from "./views";

const memberColumns = (): Column<EngagementMember>[] => [
  {
    header: t("admin.sponsors.col.executive"),
    rowHeader: true,
    className: "admin-table__name",
    cell: (m) => (
      <>
        {memberName(m)}
        {m.name ? <span className="admin-table__sub">{m.email}</span> : null}
      </>
    ),
  },
  { header: t("admin.sponsors.col.credits"), numeric: true, cell: (m) => m.credits },
  { header: t("admin.sponsors.col.granted"), numeric: true, cell: (m) => m.granted },
  { header: t("admin.sponsors.col.used"), numeric: true, cell: (m) => m.used },
  { header: t("admin.sponsors.col.remaining"), numeric: true, cell: (m) => m.remaining },
  {
    header: t("admin.sponsors.col.joined"),
    cell: (m) =>
      m.joined ? (
        <span className="status-badge status-badge--success">{t("admin.sponsors.joined")}</span>
      ) : (
        <span className="status-badge status-badge--warning">{t("admin.sponsors.invited")}</span>
      ),
  },
];

const moveColumns = (): Column<EngagementMove>[] => [
  { header: t("admin.sponsors.col.date"), className: "nowrap", cell: (m) => shortDate(m.createdAt) },
  { header: t("admin.sponsors.field.from"), cell: (m) => m.fromName },
  { header: t("admin.sponsors.field.to"), cell: (m) => m.toName },
  { header: t("admin.sponsors.col.credits"), numeric: true, cell: (m) => m.credits },
  { header: t("admin.sponsors.field.reason"), cell: (m) => m.reason },
];

function Figures({ e }: { e: EngagementView }) {
  const figures: [string, string | number][] = [
    [t("admin.sponsors.col.credits"), e.credits],
    [t("admin.sponsors.figure.allocated"), e.allocated],
    [t("admin.sponsors.figure.pool"), e.pool],
    [t("admin.sponsors.col.price"), formatMoney(e.price)],
  ];
  return (
    <dl className="admin-refund__figures sponsors-figures">
      {figures.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

type Dialog = "allocate" | "move" | "release" | null;

export function EngagementPage(props: { sponsor: SponsorView; engagementId: string; clients: ClientRow[]; onBack: () => void }) {
  const [e, setE] = useState<EngagementView | null>(null);
  const [failed, setFailed] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);

  const load = () => {
    setFailed(false);
    getEngagement(props.engagementId)
      .then(setE)
      .catch(() => {
        setFailed(true);
        toast.error(t("common.error.title"), { description: t("admin.sponsors.engagementFailedLoad") });
      });
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(load, [props.engagementId]);

  const back = <BackButton onClick={props.onBack}>{t("admin.sponsors.backTo", { name: props.sponsor.name })}</BackButton>;
  // The heading is the same element while loading and once loaded, so the focus the tab put on
  // it stays there.
  const heading = (title: string, lead?: string) => (
    <div>
      <h2 className="panel__title" id="sponsors-page-title" tabIndex={-1}>
        {title}
      </h2>
      {lead ? <p className="admin-panel__lead">{lead}</p> : null}
    </div>
  );
  if (failed || !e) {
    return (
      <div className="admin-stack">
        {back}
        {heading(t("admin.sponsors.engagementLoading"))}
        {failed ? (
          <div className="notice notice--error" role="alert">
            {t("admin.sponsors.engagementFailedLoad")}{" "}
            <button type="button" className="link-button" onClick={load}>
              {t("common.tryAgain")}
            </button>
          </div>
        ) : (
          <p className="admin-muted" role="status">
            {t("common.loading")}
          </p>
        )}
      </div>
    );
  }

  async function release() {
    setBusy(true);
    try {
      setE(await releaseCredits(props.engagementId));
      toast.success(t("admin.sponsors.releasedDone"));
      setDialog(null);
    } catch (err) {
      toast.error(t("common.error.title"), { description: errorText(err, t("admin.sponsors.releaseFailed")) });
    } finally {
      setBusy(false);
    }
  }

  const canMove = movable(e.members).length >= 2;
  const done = (changed: EngagementView) => {
    setE(changed);
    setDialog(null);
  };
  return (
    <div className="admin-stack">
      {back}
      {heading(e.title, t("admin.sponsors.engagementLead", { sponsor: e.sponsorName, date: shortDate(e.startsOn), months: e.validityMonths }))}
      <Figures e={e} />
      <p className="sponsors-state">{releaseState(e)}</p>
      <div className="admin-form__actions">
        {canRelease(e) ? (
          <DialogButton className="btn btn--outline btn--sm" preload={() => undefined} onOpen={() => setDialog("release")}>
            {t("admin.sponsors.release")}
          </DialogButton>
        ) : null}
        {e.pool > 0 ? (
          <DialogButton className="btn btn--navy btn--sm" preload={() => undefined} onOpen={() => setDialog("allocate")}>
            {t("admin.sponsors.allocate")}
          </DialogButton>
        ) : null}
        {canMove ? (
          <DialogButton className="btn btn--outline btn--sm" preload={() => undefined} onOpen={() => setDialog("move")}>
            {t("admin.sponsors.move")}
          </DialogButton>
        ) : null}
      </div>
      {e.pool > 0 && canMove ? null : <p className="admin-muted">{[e.pool > 0 ? "" : t("admin.sponsors.poolEmpty"), canMove ? "" : t("admin.sponsors.moveNeedsTwo")].filter(Boolean).join(" ")}</p>}

      <section className="admin-stack" aria-labelledby="engagement-members-title">
        <h3 className="admin-client__subtitle" id="engagement-members-title">
          {t("admin.sponsors.members")}
        </h3>
        <Table
          labelledBy="engagement-members-title"
          columns={memberColumns()}
          rows={e.members}
          rowKey={(m) => m.id}
          empty={<p className="admin-muted">{t("admin.sponsors.noMembers")}</p>}
        />
      </section>

      <section className="admin-stack" aria-labelledby="engagement-moves-title">
        <h3 className="admin-client__subtitle" id="engagement-moves-title">
          {t("admin.sponsors.moves")}
        </h3>
        <Table
          labelledBy="engagement-moves-title"
          columns={moveColumns()}
          rows={e.moves}
          rowKey={(m) => m.id}
          empty={<p className="admin-muted">{t("admin.sponsors.noMoves")}</p>}
        />
      </section>

      <InvoicePanel invoice={e.invoice} onChanged={(invoice) => (invoice.status === "paid" ? load() : setE({ ...e, invoice }))} />

      {dialog === "allocate" ? <AllocateDialog engagement={e} clients={props.clients} onClose={() => setDialog(null)} onDone={done} /> : null}
      {dialog === "move" ? <MoveDialog engagement={e} onClose={() => setDialog(null)} onDone={done} /> : null}
      {dialog === "release" ? (
        <ConfirmDialog
          open
          title={t("admin.sponsors.releaseTitle")}
          description={t("admin.sponsors.releaseText")}
          confirmText={t("admin.sponsors.releaseConfirm")}
          cancelText={t("common.cancel")}
          busy={busy}
          onConfirm={() => void release()}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </div>
  );
}
