// The Radix dialog frame of the admin dashboard, a confirm dialog, and the error list under
// 'Details:'. Loaded on demand (./lazy) with the dialogs that use it.
import * as Dialog from "@radix-ui/react-dialog";
import { type ReactNode, useRef } from "react";
import { t } from "../lib/i18n";

/** A Radix dialog with the theme's frame, a title, a description and a close button. */
export function Modal(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  wide?: boolean;
  /** Where focus goes on close; by default the element that had it when the dialog opened. */
  focusOnClose?: () => HTMLElement | null | undefined;
  children: ReactNode;
}) {
  // The dialogs open from plain buttons, not Dialog.Trigger, so Radix has nothing to return
  // focus to: remember the opener.
  const opener = useRef<HTMLElement | null>(document.activeElement instanceof HTMLElement ? document.activeElement : null);
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className={props.wide ? "dialog-content admin-dialog admin-dialog--wide" : "dialog-content admin-dialog"}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            const target = props.focusOnClose?.() ?? opener.current;
            if (target?.isConnected) target.focus();
          }}
        >
          <Dialog.Title className="dialog-title">{props.title}</Dialog.Title>
          <Dialog.Description className="dialog-description">{props.description}</Dialog.Description>
          {props.children}
          <Dialog.Close className="dialog-close" aria-label={t("common.close")}>
            <span aria-hidden="true">×</span>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A small confirm prompt (cancel a booking, mark a no-show). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmText: string;
  cancelText?: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  focusOnClose?: () => HTMLElement | null | undefined;
}) {
  return (
    <Modal
      open={props.open}
      onOpenChange={(o) => !o && !props.busy && props.onClose()}
      title={props.title}
      description={props.description}
      focusOnClose={props.focusOnClose}
    >
      <div className="dialog-actions">
        <Dialog.Close asChild>
          <button type="button" className="btn btn--outline btn--sm" disabled={props.busy}>
            {props.cancelText ?? t("common.dialog.keep")}
          </button>
        </Dialog.Close>
        <button type="button" className="btn btn--sm admin-btn--danger" onClick={props.onConfirm} disabled={props.busy} aria-busy={props.busy}>
          {props.busy ? t("common.dialog.working") : props.confirmText}
        </button>
      </div>
    </Modal>
  );
}

/** The server's field errors, under 'Details:' (spec §7: admin-create-user). */
export function ErrorDetails({ message, fields, labels }: { message: string; fields: Record<string, string>; labels: Record<string, string> }) {
  const entries = Object.entries(fields);
  return (
    <div className="notice notice--error admin-details" role="alert">
      <p className="admin-details__message">{message}</p>
      {entries.length > 0 ? (
        <>
          <p className="admin-details__heading">{t("common.dialog.details")}</p>
          <ul className="admin-details__list">
            {entries.map(([k, v]) => (
              <li key={k}>
                <strong>{labels[k] ?? k}:</strong> {v}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

