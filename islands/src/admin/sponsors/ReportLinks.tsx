// A sponsor's usage report links: Create report link (valid for some days; its address is shown
// once, with Copy link), and the links made, with their dates and state, and Revoke.
import { useEffect, useId, useState } from "react";
import { Form, FormField, showServerErrors, useZodForm } from "../../lib/form";
import { shortDate } from "../../lib/format";
import { t } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { createReportLink, listReportLinks, revokeReportLink } from "../../sponsors/api";
import type { CreatedReportLink, ReportLinkView } from "../../sponsors/types";
import { ConfirmDialog } from "../dialog";
import { DialogButton, RowActions } from "../parts";
import { type Column, Table } from "../Table";
import { DEFAULT_REPORT_DAYS, reportLinkSchema } from "./rules";
import { copyText, errorText, failureOf, linkState } from "./views";

function LinkStatus({ link }: { link: ReportLinkView }) {
  const state = linkState(link);
  if (state === "revoked") return <span className="status-badge status-badge--danger">{t("admin.sponsors.link.revokedOn", { date: shortDate(link.revokedAt ?? "") })}</span>;
  if (state === "expired") return <span className="status-badge status-badge--warning">{t("admin.sponsors.link.expired")}</span>;
  return <span className="status-badge status-badge--success">{t("admin.sponsors.link.active")}</span>;
}

function columns(onRevoke: (l: ReportLinkView) => void): Column<ReportLinkView>[] {
  return [
    { header: t("admin.sponsors.link.created"), className: "nowrap", cell: (l) => shortDate(l.createdAt) },
    { header: t("admin.sponsors.link.expires"), className: "nowrap", cell: (l) => shortDate(l.expiresAt) },
    { header: t("admin.sponsors.col.status"), cell: (l) => <LinkStatus link={l} /> },
    {
      header: t("admin.sponsors.col.actions"),
      hiddenHeader: true,
      className: "admin-table__actions",
      cell: (l) => (
        <RowActions>
          {linkState(l) === "active" ? (
            <DialogButton className="btn btn--sm admin-btn--danger-outline" preload={() => undefined} onOpen={() => onRevoke(l)}>
              {t("admin.sponsors.link.revoke")}
              <span className="visually-hidden"> {t("admin.sponsors.link.revokeHidden", { date: shortDate(l.createdAt) })}</span>
            </DialogButton>
          ) : null}
        </RowActions>
      ),
    },
  ];
}

/** The new link's address, shown once, with Copy link. */
function NewLink({ link, id }: { link: CreatedReportLink; id: string }) {
  async function copy() {
    if (await copyText(link.url)) toast.success(t("admin.sponsors.link.copied"));
    else toast.error(t("common.error.title"), { description: t("admin.sponsors.copyFailed") });
  }
  return (
    <div className="notice sponsors-new-link" role="status">
      <p className="admin-details__message">{t("admin.sponsors.link.once", { date: shortDate(link.expiresAt) })}</p>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-url`}>
          {t("admin.sponsors.link.url")}
        </label>
        <div className="discount-code">
          <input className="input" id={`${id}-url`} type="text" dir="ltr" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="btn btn--navy btn--sm" onClick={() => void copy()}>
            {t("admin.sponsors.link.copy")}
          </button>
        </div>
      </div>
    </div>
  );
}

export function ReportLinks({ sponsorId }: { sponsorId: string }) {
  const id = useId();
  const [links, setLinks] = useState<ReportLinkView[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [created, setCreated] = useState<CreatedReportLink | null>(null);
  const [revoking, setRevoking] = useState<ReportLinkView | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useZodForm<{ days: string }, { days: number }>({ schema: reportLinkSchema, defaultValues: () => ({ days: String(DEFAULT_REPORT_DAYS) }) });
  const creating = form.formState.isSubmitting;

  const load = () => {
    setFailed(false);
    listReportLinks(sponsorId)
      .then(setLinks)
      .catch(() => setFailed(true));
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(load, [sponsorId]);

  async function create({ days }: { days: number }) {
    try {
      const link = await createReportLink(sponsorId, days);
      setCreated(link);
      setLinks((list) => [link, ...(list ?? [])]);
      toast.success(t("admin.sponsors.link.createdDone"));
    } catch (err) {
      const f = failureOf(err, t("admin.sponsors.link.createFailed"));
      showServerErrors(form, f.fields, ["days"]);
      toast.error(t("common.error.title"), { description: f.message });
    }
  }

  async function revoke(link: ReportLinkView) {
    setBusy(true);
    try {
      const changed = await revokeReportLink(link.id);
      setLinks((list) => (list ?? []).map((l) => (l.id === changed.id ? changed : l)));
      toast.success(t("admin.sponsors.link.revokedDone"));
      setRevoking(null);
    } catch (err) {
      toast.error(t("common.error.title"), { description: errorText(err, t("admin.sponsors.link.revokeFailed")) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-stack" aria-labelledby={`${id}-title`}>
      <div>
        <h3 className="admin-client__subtitle" id={`${id}-title`}>
          {t("admin.sponsors.link.title")}
        </h3>
        <p className="admin-panel__lead">{t("admin.sponsors.link.lead")}</p>
      </div>
      <Form form={form} className="form admin-form sponsors-link-form" onSubmit={create} aria-busy={creating}>
        <FormField<{ days: string }> name="days" id={`${id}-days`} label={t("admin.sponsors.link.days")} hint={t("admin.sponsors.link.daysHint")}>
          <input className="input" type="number" inputMode="numeric" min={1} max={365} step={1} />
        </FormField>
        <button type="submit" className="btn btn--navy btn--sm admin-back" disabled={creating} aria-busy={creating}>
          {creating ? t("admin.sponsors.creating") : t("admin.sponsors.link.create")}
        </button>
      </Form>
      {created ? <NewLink link={created} id={id} /> : null}
      {failed ? (
        <div className="notice notice--error" role="alert">
          {t("admin.sponsors.link.loadFailed")}{" "}
          <button type="button" className="link-button" onClick={load}>
            {t("common.tryAgain")}
          </button>
        </div>
      ) : (
        <Table
          labelledBy={`${id}-title`}
          columns={columns(setRevoking)}
          rows={links}
          rowKey={(l) => l.id}
          loadingRow={t("admin.sponsors.link.loading")}
          empty={<p className="admin-muted">{t("admin.sponsors.link.none")}</p>}
        />
      )}
      {revoking ? (
        <ConfirmDialog
          open
          title={t("admin.sponsors.link.revokeTitle")}
          description={t("admin.sponsors.link.revokeText")}
          confirmText={t("admin.sponsors.link.revokeConfirm")}
          busy={busy}
          onConfirm={() => void revoke(revoking)}
          onClose={() => setRevoking(null)}
        />
      ) : null}
    </section>
  );
}
