// The client page's profile (name, phone and role, edited in place, Save at the end of the
// form) and, in a section of its own at the end of the page, the account's access (deactivate or
// reactivate), so the destructive button never sits beside Save.
import { Suspense, useId, useState } from "react";
import { toast } from "sonner";
import type { ClientDetailView } from "../../api/types";
import { ApiError, POST, PUT } from "../../lib/api";
import { shortDate } from "../../lib/format";
import { Field } from "../../lib/ui";
import { checkProfile } from "../client-page";
import { useForm } from "../form";
import { fieldErrors } from "../helpers";
import { ConfirmDialog, preloadClientDialogs } from "./lazy";
import { DialogButton } from "../parts";

export function ProfileSection({ client, onChange }: { client: ClientDetailView; onChange: (c: ClientDetailView) => void }) {
  const id = useId();
  const form = useForm(() => ({ fullName: client.fullName, phone: client.phone ?? "", role: client.role as string }));
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const checked = checkProfile(form.values);
    if (!checked.ok) return form.setErrors(checked.errors);
    setSaving(true);
    try {
      onChange(await PUT("/api/admin/clients/{id}", checked.payload, { path: { id: client.userId } }));
      toast.success("Profile saved");
    } catch (e) {
      if (e instanceof ApiError) form.setErrors(fieldErrors(e.fields, ["fullName", "phone", "role"] as const));
      toast.error("Error", { description: e instanceof ApiError ? e.message : "Failed to save the profile." });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id={`${id}-title`}>
            Profile
          </h2>
          <p className="admin-panel__lead">
            <a href={`mailto:${client.email}`}>{client.email}</a>
            {client.emailConfirmed ? "" : " (email not confirmed)"} · joined {shortDate(client.createdAt)}
          </p>
        </div>
        <AccessBadge client={client} />
      </div>
      {/* Two fields a row from 40em (name and phone whole, never cut off), Save last. */}
      <form
        className="form admin-form"
        style={{ maxWidth: "48rem" }}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="form__row">
          <Field id={`${id}-name`} label="Full Name" error={form.errors.fullName}>
            <input className="input" autoComplete="off" {...form.bind("fullName", `${id}-name`)} />
          </Field>
          <Field id={`${id}-phone`} label="Phone Number" error={form.errors.phone}>
            <input className="input" type="tel" autoComplete="off" {...form.bind("phone", `${id}-phone`)} />
          </Field>
        </div>
        <div className="form__row">
          <Field id={`${id}-role`} label="Role" error={form.errors.role}>
            <select className="input" {...form.bind("role", `${id}-role`)}>
              <option value="client">client</option>
              <option value="admin">admin</option>
            </select>
          </Field>
        </div>
        <button type="submit" className="btn btn--navy btn--sm" disabled={saving} aria-busy={saving}>
          {saving ? "Saving..." : "Save profile"}
        </button>
      </form>
    </section>
  );
}

function AccessBadge({ client }: { client: ClientDetailView }) {
  return client.deactivatedAt ? (
    <span className="status-badge status-badge--danger">Deactivated {shortDate(client.deactivatedAt)}</span>
  ) : (
    <span className="status-badge status-badge--success">Active</span>
  );
}

/** Whether the client can sign in, and the one button that changes it, apart from the profile. */
export function AccountSection({ client, onChange }: { client: ClientDetailView; onChange: (c: ClientDetailView) => void }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const [switching, setSwitching] = useState(false);
  const active = !client.deactivatedAt;
  const switchActive = async () => {
    setSwitching(true);
    try {
      onChange(await POST(active ? "/api/admin/clients/{id}/deactivate" : "/api/admin/clients/{id}/reactivate", {}, { path: { id: client.userId } }));
      toast.success(active ? "Account deactivated" : "Account reactivated", {
        description: active ? "They are signed out everywhere and cannot sign in. Their history stays." : "They can sign in again.",
      });
      setConfirming(false);
    } catch (e) {
      toast.error("Error", { description: e instanceof ApiError ? e.message : "Please try again." });
    } finally {
      setSwitching(false);
    }
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`} style={{ borderColor: active ? undefined : "var(--danger)" }}>
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id={`${id}-title`}>
            Account
          </h2>
          <p className="admin-panel__lead">
            {active
              ? "Deactivating signs the client out everywhere and stops them signing in. Their credits, payments and sessions stay."
              : "The client cannot sign in. Reactivating lets them sign in again, with their credits, payments and sessions as they were."}
          </p>
        </div>
        <AccessBadge client={client} />
      </div>
      <DialogButton className={active ? "btn btn--sm admin-btn--danger-outline" : "btn btn--sm btn--outline"} preload={preloadClientDialogs} onOpen={() => setConfirming(true)}>
        {active ? "Deactivate account" : "Reactivate account"}
      </DialogButton>
      {confirming ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            title={active ? "Deactivate this account?" : "Reactivate this account?"}
            description={
              active
                ? `${client.fullName} will be signed out everywhere and cannot sign in until you reactivate the account. Their credits, payments and sessions stay.`
                : `${client.fullName} will be able to sign in again.`
            }
            confirmText={active ? "Deactivate" : "Reactivate"}
            cancelText="Keep as is"
            busy={switching}
            onConfirm={() => void switchActive()}
            onClose={() => setConfirming(false)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
