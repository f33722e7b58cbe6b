// 'Assign to client' for a booking that needs attention (Booking Management): the admin picks
// the client; POST /api/admin/bookings/{id}/assign uses one of that client's credits now, and
// the booking becomes theirs, confirmed (the client gets the confirmation email).
import { useId } from "react";
import { useWatch } from "react-hook-form";
import { toast } from "../lib/toast";
import * as z from "zod/mini";
import { ApiError, POST } from "../lib/api";
import { credits, longDateTime } from "../lib/format";
import { Form, FormField, showServerErrors, useZodForm } from "../lib/form";
import { localPath, t } from "../lib/i18n";
import { rich } from "../lib/rich";
import { msg } from "../lib/validate";
import type { BookingView, ClientRow } from "../api/types";
import { Modal } from "./dialog";
import { hasCredits, suggestedClient } from "./helpers";

const choiceSchema = z.object({ clientId: z.string().check(z.minLength(1, msg("admin.rule.selectClient"))) });
type Choice = z.infer<typeof choiceSchema>;

export function AssignDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  booking: BookingView;
  clients: ClientRow[];
  onAssigned: () => void;
  focusOnClose?: () => HTMLElement | null | undefined;
}) {
  const { booking, clients } = props;
  const form = useZodForm<Choice>({ schema: choiceSchema, defaultValues: () => ({ clientId: suggestedClient(booking, clients)?.user_id ?? "" }) });
  const busy = form.formState.isSubmitting;
  const id = useId();
  const selectId = `${id}-client`;
  const clientId = useWatch({ control: form.control, name: "clientId" });
  const client = clients.find((c) => c.user_id === clientId);
  const blocked = !!client && !hasCredits(client);
  const booker = [booking.clientName, booking.clientEmail ? `<${booking.clientEmail}>` : null].filter(Boolean).join(" ") || t("admin.assign.unknownInvitee");

  function close(next: boolean) {
    if (busy) return;
    props.onOpenChange(next);
  }

  async function submit({ clientId }: Choice) {
    if (blocked) {
      toast.error(t("common.insufficientCredits"), { description: t("admin.noCredits") });
      return;
    }
    try {
      const assigned = await POST("/api/admin/bookings/{id}/assign", { clientId }, { path: { id: booking.id } });
      toast.success(t("admin.assign.done"), {
        description: t("admin.assign.doneText", { when: longDateTime(assigned.sessionDate), who: assigned.clientName ?? client?.full_name ?? t("admin.theClient") }),
      });
      props.onAssigned();
      props.onOpenChange(false);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.apiMessage === "Insufficient Credits") {
        toast.error(t("common.insufficientCredits"), { description: t("admin.noCredits") });
      } else {
        const message = err instanceof ApiError ? err.message : t("common.error.unexpected");
        if (err instanceof ApiError) showServerErrors(form, err.fields, ["clientId"]);
        toast.error(t("admin.assign.failed"), { description: message });
      }
    }
  }

  return (
    <Modal
      open={props.open}
      onOpenChange={close}
      title={t("admin.assign.title")}
      description={t("admin.assign.text", { when: longDateTime(booking.sessionDate), booker })}
      focusOnClose={props.focusOnClose}
    >
      <Form form={form} className="form admin-form" onSubmit={submit} aria-busy={busy}>
        <FormField<Choice>
          name="clientId"
          id={selectId}
          label={t("admin.col.client")}
          hintDescribes
          hint={client ? t("admin.clientHasCredits", { name: client.full_name, count: client.available_credits }) : t("admin.assign.hint")}
        >
          <select className="input">
            <option value="">{t("admin.selectClient")}</option>
            {clients.map((c) => (
              <option key={c.user_id} value={c.user_id}>
                {t("admin.clientOption", { name: c.full_name, email: c.email, credits: credits(c.available_credits) })}
              </option>
            ))}
          </select>
        </FormField>
        {blocked ? (
          <div className="notice notice--error" role="alert">
            {rich("admin.blocked", {
              name: client.full_name,
              strong: (c) => <strong>{c}</strong>,
              link: (c) => <a href={localPath("/admin/add-payment")}>{c}</a>,
            })}
          </div>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={() => close(false)} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy || blocked} aria-busy={busy}>
            {busy ? t("admin.assign.busy") : t("admin.assign.confirm")}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
