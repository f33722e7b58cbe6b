// The admin dashboard's Sponsors tab (issue 23): the companies that pay for their executives'
// coaching. The list of sponsors, with New sponsor, Edit and Archive; a sponsor's page with its
// engagements and its usage report links; an engagement's page with its executives, credit
// moves and invoice. The dashboard loads this module (its parts in ./sponsors, zod and the
// sponsors catalogue) when the tab is first shown.
import { useEffect, useState } from "react";
import type { ClientRow } from "../api/types";
import { ApiError } from "../lib/api";
import { t } from "../lib/i18n";
import { toast } from "../lib/toast";
import { archiveSponsor, listSponsors } from "../sponsors/api";
import type { SponsorView } from "../sponsors/types";
import { ConfirmDialog } from "./dialog";
import { DialogButton, PlusIcon } from "./parts";
import { EngagementPage } from "./sponsors/EngagementPage";
import { SponsorDialog } from "./sponsors/SponsorDialog";
import { SponsorPage } from "./sponsors/SponsorPage";
import { SponsorsTable } from "./sponsors/SponsorsTable";
import { sponsorOrder } from "./sponsors/views";

/** Which page of the tab shows. */
type View = { page: "list" } | { page: "sponsor"; sponsorId: string } | { page: "engagement"; sponsorId: string; engagementId: string };

export function SponsorsTab({ clients }: { clients: ClientRow[] }) {
  const [sponsors, setSponsors] = useState<SponsorView[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [view, setView] = useState<View>({ page: "list" });
  const [editing, setEditing] = useState<SponsorView | "new" | null>(null);
  const [archiving, setArchiving] = useState<SponsorView | null>(null);
  const [busy, setBusy] = useState(false);
  const [moved, setMoved] = useState(false);

  const load = () => {
    setFailed(false);
    listSponsors()
      .then((list) => setSponsors([...list].sort(sponsorOrder)))
      .catch(() => {
        setFailed(true);
        toast.error(t("common.error.title"), { description: t("admin.sponsors.loadFailed") });
      });
  };
  useEffect(load, []);

  // A page change moves focus to its heading, so a screen reader says where the admin is.
  useEffect(() => {
    if (moved) document.getElementById("sponsors-page-title")?.focus();
  }, [view, moved]);
  const go = (next: View) => {
    setMoved(true);
    setView(next);
  };

  const saved = (s: SponsorView) => setSponsors((list) => [...(list ?? []).filter((x) => x.id !== s.id), s].sort(sponsorOrder));

  async function archive(s: SponsorView) {
    setBusy(true);
    try {
      saved(await archiveSponsor(s.id));
      toast.success(t("admin.sponsors.archived", { name: s.name }));
      setArchiving(null);
    } catch (err) {
      toast.error(t("common.error.title"), { description: err instanceof ApiError ? err.message : t("admin.sponsors.archiveFailed") });
    } finally {
      setBusy(false);
    }
  }

  const sponsor = view.page === "list" ? undefined : sponsors?.find((s) => s.id === view.sponsorId);
  let body;
  if (view.page === "engagement" && sponsor) {
    body = <EngagementPage sponsor={sponsor} engagementId={view.engagementId} clients={clients} onBack={() => go({ page: "sponsor", sponsorId: sponsor.id })} />;
  } else if (view.page !== "list" && sponsor) {
    body = (
      <SponsorPage
        sponsor={sponsor}
        clients={clients}
        onBack={() => go({ page: "list" })}
        onEdit={() => setEditing(sponsor)}
        onArchive={() => setArchiving(sponsor)}
        onOpen={(engagementId) => go({ page: "engagement", sponsorId: sponsor.id, engagementId })}
        onChanged={load}
      />
    );
  } else {
    body = (
      <>
        <div className="admin-panel__head">
          <div>
            <h2 className="panel__title" id="sponsors-page-title" tabIndex={-1}>
              {t("admin.tabs.sponsors")}
            </h2>
            <p className="admin-panel__lead">{t("admin.sponsors.lead")}</p>
          </div>
          <DialogButton className="btn btn--navy btn--sm" preload={() => undefined} onOpen={() => setEditing("new")}>
            <PlusIcon />
            {t("admin.sponsors.new")}
          </DialogButton>
        </div>
        <p className="visually-hidden" aria-live="polite">
          {sponsors === null ? "" : t("admin.sponsors.found", { count: sponsors.length })}
        </p>
        {failed ? (
          <div className="notice notice--error" role="alert">
            {t("admin.sponsors.loadFailed")}{" "}
            <button type="button" className="link-button" onClick={load}>
              {t("common.tryAgain")}
            </button>
          </div>
        ) : (
          <SponsorsTable
            rows={sponsors}
            onOpen={(s) => go({ page: "sponsor", sponsorId: s.id })}
            onEdit={(s) => setEditing(s)}
            onArchive={(s) => setArchiving(s)}
          />
        )}
      </>
    );
  }

  return (
    <section className="panel admin-panel sponsors" aria-labelledby="sponsors-page-title">
      {body}
      {editing ? (
        <SponsorDialog
          sponsor={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(s) => {
            saved(s);
            setEditing(null);
          }}
        />
      ) : null}
      {archiving ? (
        <ConfirmDialog
          open
          title={t("admin.sponsors.archiveTitle", { name: archiving.name })}
          description={t("admin.sponsors.archiveText")}
          confirmText={t("admin.sponsors.archive")}
          busy={busy}
          onConfirm={() => void archive(archiving)}
          onClose={() => setArchiving(null)}
        />
      ) : null}
    </section>
  );
}
