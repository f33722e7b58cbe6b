// The System tab's small pieces: a result badge and a section of the page with its heading.
import type { ReactNode } from "react";
import { tone } from "./views";

/** A result ("OK", "Refused", "Waiting") in its colour. */
export function Outcome({ outcome, label }: { outcome: string; label: string }) {
  return <span className={`status-badge status-badge--${tone(outcome)}`}>{label}</span>;
}

/** One part of the page: a panel headed by `title` (its id names the panel's region). */
export function Section(props: { id: string; title: string; lead?: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <section className="panel admin-panel system-section" aria-labelledby={props.id}>
      <div className="admin-panel__head">
        <div>
          <h3 className="panel__title" id={props.id}>
            {props.title}
          </h3>
          {props.lead ? <p className="admin-panel__lead">{props.lead}</p> : null}
        </div>
        {props.action}
      </div>
      {props.children}
    </section>
  );
}
