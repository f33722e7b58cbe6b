// The client page's profile: name, phone and role, edited in place, Save at the end of the
// form. Its rules (../client-page, with zod) load on the form's first focus or hover. The
// account's access is in its own section at the end of the page (./AccountSection).
import { useId } from "react";
import { toast } from "../../lib/toast";
import type { ClientDetailView, Complete, EditProfileBody } from "../../api/types";
import { ApiError, PUT } from "../../lib/api";
import { shortDate } from "../../lib/format";
import { Form, FormField, lazySchema, showServerErrors, useZodForm } from "../../lib/form";
import { t } from "../../lib/i18n";
import { LanguageOptions } from "../../lib/LanguageOptions";
import { AccessBadge } from "./AccountSection";
import type { ProfileForm } from "./views";

const rules = lazySchema(() => import("../client-page").then((m) => m.profileSchema));
const Input = FormField<ProfileForm>;

export function ProfileSection({ client, onChange }: { client: ClientDetailView; onChange: (c: ClientDetailView) => void }) {
  const id = useId();
  const form = useZodForm<ProfileForm, Complete<EditProfileBody>>({
    schema: rules,
    defaultValues: () => ({ fullName: client.fullName, phone: client.phone ?? "", role: client.role as string, language: client.language }),
  });
  const saving = form.formState.isSubmitting;

  const save = async (payload: Complete<EditProfileBody>) => {
    try {
      onChange(await PUT("/api/admin/clients/{id}", payload, { path: { id: client.userId } }));
      toast.success(t("adminClient.profile.saved"));
    } catch (e) {
      if (e instanceof ApiError) showServerErrors(form, e.fields, ["fullName", "phone", "role", "language"]);
      toast.error(t("common.error.title"), { description: e instanceof ApiError ? e.message : t("adminClient.profile.failed") });
    }
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <div className="admin-panel__head">
        <div>
          <h2 className="panel__title" id={`${id}-title`}>
            {t("adminClient.profile.title")}
          </h2>
          <p className="admin-panel__lead">
            <a href={`mailto:${client.email}`}>{client.email}</a>
            {client.emailConfirmed ? "" : t("adminClient.profile.unconfirmed")} · {t("adminClient.profile.joined", { date: shortDate(client.createdAt) })}
          </p>
        </div>
        <AccessBadge client={client} />
      </div>
      {/* Two fields a row from 40em (name and phone whole, never cut off), Save last. */}
      <Form form={form} className="form admin-form" style={{ maxWidth: "48rem" }} onSubmit={save}>
        <div className="form__row">
          <Input name="fullName" id={`${id}-name`} label={t("admin.field.fullName")}>
            <input className="input" autoComplete="off" />
          </Input>
          <Input name="phone" id={`${id}-phone`} label={t("adminClient.profile.phone")}>
            <input className="input" type="tel" autoComplete="off" />
          </Input>
        </div>
        <div className="form__row">
          <Input name="role" id={`${id}-role`} label={t("admin.field.role")}>
            <select className="input">
              <option value="client">{t("adminClient.profile.roleClient")}</option>
              <option value="admin">{t("adminClient.profile.roleAdmin")}</option>
            </select>
          </Input>
          <Input name="language" id={`${id}-language`} label={t("admin.language.label")} hint={t("adminClient.profile.languageHint")}>
            <LanguageOptions />
          </Input>
        </div>
        <button type="submit" className="btn btn--navy btn--sm" disabled={saving} aria-busy={saving}>
          {saving ? t("admin.saving") : t("adminClient.profile.save")}
        </button>
      </Form>
    </section>
  );
}
