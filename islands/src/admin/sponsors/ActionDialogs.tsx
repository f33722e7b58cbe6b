// An engagement's dialogs with a form: Give credits from the pool, Move credits, and Mark paid
// (a bank transfer, with its optional reference).
import { type ReactNode, useId, useState } from "react";
import { type FieldValues, useWatch } from "react-hook-form";
import type { ClientRow } from "../../api/types";
import { Form, FormField, type ZodForm, showServerErrors, useZodForm } from "../../lib/form";
import { t } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { allocateCredits, markInvoicePaid, moveCredits } from "../../sponsors/api";
import type { EngagementView, InvoiceView, MemberBody, MoveBody } from "../../sponsors/types";
import { ErrorDetails, Modal } from "../dialog";
import { ClientOptions, PoolLine } from "./MembersField";
import { ALLOCATE_FIELDS, INVITE, MOVE_FIELDS, type MemberValues, type MoveValues, allocateSchema, apiField, markPaidSchema, memberDefaults, moveDefaults, moveSchema, movable, wholeIn } from "./rules";
import { type Failure, failureOf, memberName } from "./views";

/** A dialog with one form: its error list, its fields, Cancel and the submit button. */
function FormDialog<In extends FieldValues, Out>(props: {
  title: string;
  description: ReactNode;
  form: ZodForm<In, Out>;
  failure: Failure | null;
  labels: Record<string, string>;
  submit: string;
  busyText: string;
  onSubmit: (out: Out) => Promise<void>;
  onClose: () => void;
  onInvalid: () => void;
  children: ReactNode;
}) {
  const busy = props.form.formState.isSubmitting;
  return (
    <Modal open onOpenChange={(open) => !open && !busy && props.onClose()} title={props.title} description={props.description}>
      <Form form={props.form} className="form admin-form" onSubmit={props.onSubmit} onInvalid={props.onInvalid} aria-busy={busy}>
        {props.failure ? <ErrorDetails message={props.failure.message} fields={props.failure.fields} labels={props.labels} /> : null}
        {props.children}
        <div className="dialog-actions">
          <button type="button" className="btn btn--outline btn--sm" onClick={props.onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="btn btn--navy btn--sm" disabled={busy} aria-busy={busy}>
            {busy ? props.busyText : props.submit}
          </button>
        </div>
      </Form>
    </Modal>
  );
}

/** Runs a call; on a refusal puts its messages on the fields and in the list, and says so. */
function useSubmit<In extends FieldValues, Out>(form: ZodForm<In, Out>, fields: readonly string[], fallback: () => string) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const run = async (call: () => Promise<void>) => {
    setFailure(null);
    try {
      await call();
    } catch (err) {
      const f = failureOf(err, fallback());
      showServerErrors(form, f.fields, fields as never, (name) => apiField(String(name)));
      setFailure(f);
      toast.error(t("common.error.title"), { description: f.message });
    }
  };
  return { failure, clear: () => setFailure(null), run };
}

// ------------------------------------------------------------------------------ Give credits from the pool

const Member = FormField<MemberValues>;

export function AllocateDialog(props: { engagement: EngagementView; clients: ClientRow[]; onClose: () => void; onDone: (e: EngagementView) => void }) {
  const id = useId();
  const { pool } = props.engagement;
  const form = useZodForm<MemberValues, MemberBody>({ schema: allocateSchema(pool), defaultValues: memberDefaults });
  const { failure, clear, run } = useSubmit(form, ALLOCATE_FIELDS, () => t("admin.sponsors.allocateFailed"));
  const [who, credits] = useWatch({ control: form.control, name: ["who", "credits"] });
  const given = wholeIn(credits ?? "", 1, 1000);
  const labels = { clientId: t("admin.sponsors.field.executive"), email: t("admin.sponsors.field.inviteEmail"), credits: t("admin.sponsors.field.memberCredits") };
  return (
    <FormDialog
      title={t("admin.sponsors.allocate")}
      description={t("admin.sponsors.allocateText", { title: props.engagement.title })}
      form={form}
      failure={failure}
      labels={labels}
      submit={t("admin.sponsors.allocateSubmit")}
      busyText={t("admin.sponsors.working")}
      onClose={props.onClose}
      onInvalid={clear}
      onSubmit={(body) =>
        run(async () => {
          const changed = await allocateCredits(props.engagement.id, body);
          toast.success(t("admin.sponsors.allocated", { count: body.credits }));
          props.onDone(changed);
        })
      }
    >
      <Member name="who" id={`${id}-who`} label={t("admin.sponsors.field.executive")}>
        <select className="input">
          <option value="">{t("admin.sponsors.chooseClient")}</option>
          <ClientOptions clients={props.clients} />
          <option value={INVITE}>{t("admin.sponsors.inviteByEmail")}</option>
        </select>
      </Member>
      {who === INVITE ? (
        <Member name="email" id={`${id}-email`} label={t("admin.sponsors.field.inviteEmail")} hint={t("admin.sponsors.field.inviteHint")}>
          <input className="input" type="email" dir="ltr" autoComplete="off" spellCheck={false} />
        </Member>
      ) : null}
      <Member name="credits" id={`${id}-credits`} label={t("admin.sponsors.field.memberCredits")} describedBy={`${id}-pool`}>
        <input className="input" type="number" inputMode="numeric" min={1} max={pool} step={1} />
      </Member>
      <PoolLine id={`${id}-pool`} left={pool - (Number.isNaN(given) ? 0 : given)} />
    </FormDialog>
  );
}

// ------------------------------------------------------------------------------ Move credits

const Move = FormField<MoveValues>;

export function MoveDialog(props: { engagement: EngagementView; onClose: () => void; onDone: (e: EngagementView) => void }) {
  const id = useId();
  const members = movable(props.engagement.members);
  const form = useZodForm<MoveValues, MoveBody>({ schema: moveSchema(members), defaultValues: moveDefaults });
  const { failure, clear, run } = useSubmit(form, MOVE_FIELDS, () => t("admin.sponsors.moveFailed"));
  const labels = { fromClientId: t("admin.sponsors.field.from"), toClientId: t("admin.sponsors.field.to"), credits: t("admin.sponsors.field.memberCredits"), reason: t("admin.sponsors.field.reason") };
  const options = members.map((m) => (
    <option key={m.clientId} value={m.clientId}>
      {t("admin.sponsors.memberOption", { name: memberName(m), count: m.remaining })}
    </option>
  ));
  return (
    <FormDialog
      title={t("admin.sponsors.move")}
      description={t("admin.sponsors.moveText")}
      form={form}
      failure={failure}
      labels={labels}
      submit={t("admin.sponsors.move")}
      busyText={t("admin.sponsors.working")}
      onClose={props.onClose}
      onInvalid={clear}
      onSubmit={(body) =>
        run(async () => {
          const changed = await moveCredits(props.engagement.id, body);
          toast.success(t("admin.sponsors.moved", { count: body.credits }));
          props.onDone(changed);
        })
      }
    >
      <div className="form__row">
        <Move name="from" id={`${id}-from`} label={t("admin.sponsors.field.from")}>
          <select className="input">
            <option value="">{t("admin.sponsors.chooseMember")}</option>
            {options}
          </select>
        </Move>
        <Move name="to" id={`${id}-to`} label={t("admin.sponsors.field.to")}>
          <select className="input">
            <option value="">{t("admin.sponsors.chooseMember")}</option>
            {options}
          </select>
        </Move>
      </div>
      <Move name="credits" id={`${id}-credits`} label={t("admin.sponsors.field.memberCredits")}>
        <input className="input" type="number" inputMode="numeric" min={1} step={1} />
      </Move>
      <Move name="reason" id={`${id}-reason`} label={t("admin.sponsors.field.reason")} hint={t("admin.sponsors.field.reasonHint")}>
        <textarea className="input admin-textarea" rows={2} maxLength={500} />
      </Move>
    </FormDialog>
  );
}

// ------------------------------------------------------------------------------ Mark paid

export function MarkPaidDialog(props: { invoice: InvoiceView; onClose: () => void; onDone: (i: InvoiceView) => void }) {
  const id = useId();
  const form = useZodForm<{ bankReference: string }, { bankReference: string | null }>({ schema: markPaidSchema, defaultValues: () => ({ bankReference: "" }) });
  const { failure, clear, run } = useSubmit(form, ["bankReference"], () => t("admin.sponsors.invoice.actionFailed"));
  return (
    <FormDialog
      title={t("admin.sponsors.invoice.markPaidTitle", { number: props.invoice.number })}
      description={t("admin.sponsors.invoice.markPaidText")}
      form={form}
      failure={failure}
      labels={{ bankReference: t("admin.sponsors.field.bankReference") }}
      submit={t("admin.sponsors.invoice.markPaid")}
      busyText={t("admin.sponsors.working")}
      onClose={props.onClose}
      onInvalid={clear}
      onSubmit={({ bankReference }) =>
        run(async () => {
          const paid = await markInvoicePaid(props.invoice.id, bankReference);
          toast.success(t("admin.sponsors.invoice.paidDone", { number: paid.number }));
          props.onDone(paid);
        })
      }
    >
      <FormField<{ bankReference: string }> name="bankReference" id={`${id}-ref`} label={t("admin.sponsors.field.bankReference")} hint={t("admin.sponsors.field.bankReferenceHint")}>
        <input className="input" type="text" dir="ltr" autoComplete="off" maxLength={100} />
      </FormField>
    </FormDialog>
  );
}
