// The client page's profile: name, phone and role, edited in place, Save at the end of the
// form. Its rules (../client-page, with zod) load on the form's first focus or hover. The
// account's access is in its own section at the end of the page (./AccountSection).
import { useId } from "react";
import { toast } from "sonner";
import type { ClientDetailView, Complete, EditProfileBody } from "../../api/types";
import { ApiError, PUT } from "../../lib/api";
import { shortDate } from "../../lib/format";
import { Form, FormField, lazySchema, showServerErrors, useZodForm } from "../../lib/form";
import { AccessBadge } from "./AccountSection";
import type { ProfileForm } from "./views";

const rules = lazySchema(() => import("../client-page").then((m) => m.profileSchema));
const Input = FormField<ProfileForm>;

export function ProfileSection({ client, onChange }: { client: ClientDetailView; onChange: (c: ClientDetailView) => void }) {
  const id = useId();
  const form = useZodForm<ProfileForm, Complete<EditProfileBody>>({
    schema: rules,
    defaultValues: () => ({ fullName: client.fullName, phone: client.phone ?? "", role: client.role as string }),
  });
  const saving = form.formState.isSubmitting;

  const save = async (payload: Complete<EditProfileBody>) => {
    try {
      onChange(await PUT("/api/admin/clients/{id}", payload, { path: { id: client.userId } }));
      toast.success("Profile saved");
    } catch (e) {
      if (e instanceof ApiError) showServerErrors(form, e.fields, ["fullName", "phone", "role"]);
      toast.error("Error", { description: e instanceof ApiError ? e.message : "Failed to save the profile." });
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
      <Form form={form} className="form admin-form" style={{ maxWidth: "48rem" }} onSubmit={save}>
        <div className="form__row">
          <Input name="fullName" id={`${id}-name`} label="Full Name">
            <input className="input" autoComplete="off" />
          </Input>
          <Input name="phone" id={`${id}-phone`} label="Phone Number">
            <input className="input" type="tel" autoComplete="off" />
          </Input>
        </div>
        <div className="form__row">
          <Input name="role" id={`${id}-role`} label="Role">
            <select className="input">
              <option value="client">client</option>
              <option value="admin">admin</option>
            </select>
          </Input>
        </div>
        <button type="submit" className="btn btn--navy btn--sm" disabled={saving} aria-busy={saving}>
          {saving ? "Saving..." : "Save profile"}
        </button>
      </Form>
    </section>
  );
}
