// The dashboard's quick actions: book a session, buy credits, and the scheduling service's own
// page of the client's bookings (in a new tab).
import { schedulerLinkText, webUrl } from "../lib/client-views";
import { localPath, t } from "../lib/i18n";
import { ExternalIcon } from "./icons";

export function QuickActions({ schedulerName, schedulerUrl, newTabNote }: { schedulerName: string; schedulerUrl: string; newTabNote: string }) {
  const external = webUrl(schedulerUrl);
  return (
    <section className="panel client-card" aria-labelledby="client-actions-title">
      <h2 className="panel__title" id="client-actions-title">
        {t("client.actions.title")}
      </h2>
      <div className="client-actions">
        <a className="btn btn--gold" href={localPath("/book-session")}>
          {t("client.actions.book")}
        </a>
        <a className="btn btn--outline" href={localPath("/pricing")}>
          {t("client.buyCredits")}
        </a>
        {external ? (
          <a className="btn btn--outline" href={external} target="_blank" rel="noopener" aria-describedby={newTabNote}>
            {schedulerLinkText(schedulerName)}
            <ExternalIcon />
          </a>
        ) : null}
      </div>
    </section>
  );
}
