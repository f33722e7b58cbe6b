// Small presentational pieces of the admin views: the status badge, the button that opens a
// dialog, and decorative icons (stroke SVGs in the theme's .icon sizes).
import { Children, type CSSProperties, type ReactNode } from "react";
import { badgeVariant, statusLabel } from "./helpers";

/** Admin badge styles of spec §4: confirmed default, completed secondary, anything else destructive. */
export function AdminBadge({ status }: { status: string }) {
  return <span className={`status-badge admin-badge admin-badge--${badgeVariant(status)}`}>{statusLabel(status)}</span>;
}

const ROW_ACTIONS: CSSProperties = { display: "flex", flexWrap: "wrap", gap: "0.5rem", alignItems: "center" };
const ONE_ACTION: CSSProperties = { display: "inline-flex", whiteSpace: "nowrap" };

/** A table row's buttons: side by side while they fit, else one under the other (never cut off
 *  at the table's edge), each label on one line ("No-show" never breaks at its hyphen). No
 *  button renders nothing, so an action column's empty cell is left out of a phone's card. */
export function RowActions({ children }: { children: ReactNode }) {
  const buttons = Children.toArray(children).filter(Boolean);
  if (buttons.length === 0) return null;
  return (
    <div style={ROW_ACTIONS}>
      {buttons.map((b, i) => (
        <span key={i} style={ONE_ACTION}>
          {b}
        </span>
      ))}
    </div>
  );
}

/** A button that opens one of the lazily loaded dialogs (./lazy, ./client/lazy): `preload`
 *  starts their code on the first hover or focus, so the click opens the dialog at once. */
export function DialogButton(props: { className: string; preload: () => void; onOpen: () => void; children: ReactNode }) {
  return (
    <button type="button" className={props.className} aria-haspopup="dialog" onClick={props.onOpen} onPointerEnter={props.preload} onFocus={props.preload}>
      {props.children}
    </button>
  );
}

/** "+ Add" style icon for primary buttons (decorative). */
export function PlusIcon() {
  return (
    <svg className="icon icon--sm" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <path d="M12 5v14M5 12h14" />
    </svg>
  );
}

/** "Back": points the other way on a right-to-left page (the theme mirrors `.icon--mirror`). */
export function ArrowLeftIcon() {
  return (
    <svg className="icon icon--sm icon--mirror" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M19 12H5M11 18l-6-6 6-6" />
    </svg>
  );
}

export function ExternalIcon() {
  return (
    <svg className="icon icon--sm" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </svg>
  );
}
