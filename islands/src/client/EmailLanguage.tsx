// The dashboard's choice of the language the client's emails are written in (issue 21):
// PUT /api/auth/language, answered at once and rolled back if the server refuses.
import { useId, useState } from "react";
import { toast } from "../lib/toast";
import { ApiError, PUT } from "../lib/api";
import { type Lang, t } from "../lib/i18n";
import { LanguageOptions } from "../lib/LanguageOptions";

export function EmailLanguage({ language }: { language: Lang }) {
  const id = useId();
  const [value, setValue] = useState<Lang>(language);
  const [busy, setBusy] = useState(false);

  const change = async (next: Lang) => {
    const previous = value;
    setValue(next);
    setBusy(true);
    try {
      const saved = await PUT("/api/auth/language", { language: next });
      setValue(saved.language);
      toast.success(t("client.language.saved"), { description: t("client.language.savedText", { language: t(`client.language.name.${saved.language}`) }) });
    } catch (e) {
      console.error("email language", e);
      setValue(previous);
      toast.error(t("common.error.title"), { description: e instanceof ApiError && e.status !== 0 && e.status < 500 ? e.message : t("client.language.failed") });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel client-card client-card--wide" aria-labelledby={`${id}-title`}>
      <h2 className="panel__title" id={`${id}-title`}>
        {t("client.language.title")}
      </h2>
      <div className="field" style={{ maxWidth: "22rem" }}>
        <label className="field__label" htmlFor={`${id}-select`}>
          {t("client.language.label")}
        </label>
        <LanguageOptions
          id={`${id}-select`}
          value={value}
          disabled={busy}
          aria-busy={busy}
          aria-describedby={`${id}-hint`}
          onChange={(e) => void change(e.target.value as Lang)}
        />
        <p className="field__hint" id={`${id}-hint`}>
          {t("client.language.hint")}
        </p>
      </div>
    </section>
  );
}
