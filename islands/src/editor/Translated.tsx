// The editor's `translated` widget: a text (or a list of texts) of a YAML data file, which the
// site lets the coach give per language (`name: {en: …, ar: …}`, content-model's i18n). Decap's
// own string and list widgets cannot show such a value (they print `Map { … }`, and a save would
// write that). One input per language; with no Arabic the value is written back plain (a text
// or a list), as the file had it, so the site shows the English everywhere.
import { fromJS } from "immutable";
import { useState } from "react";
import ar from "./messages.ar.json";
import en from "./messages.en.json";

/** The page's language's texts (read when the widget renders). */
const pageTexts = () => (document.documentElement.lang === "ar" ? ar : en);

interface Field {
  get(key: string): unknown;
}

interface ControlProps {
  value: unknown;
  onChange(value: unknown): void;
  forID: string;
  classNameWrapper: string;
  setActiveStyle?(): void;
  setInactiveStyle?(): void;
  field: Field;
}

type Languages = { en: string; ar: string };

const plain = (v: unknown): unknown => (v && typeof (v as { toJS?: unknown }).toJS === "function" ? (v as { toJS(): unknown }).toJS() : v);

/** What each input shows: a list as one item per line. */
export function split(value: unknown, list: boolean): Languages {
  const v = plain(value);
  const text = (x: unknown): string => (list ? (Array.isArray(x) ? x.map(String).join("\n") : x == null ? "" : String(x)) : x == null ? "" : String(x));
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const byLanguage = v as Record<string, unknown>;
    return { en: text(byLanguage.en), ar: text(byLanguage.ar) };
  }
  return { en: text(v), ar: "" };
}

/** The value the file gets: plain while there is no Arabic, else `{en, ar}`. */
export function joined(texts: Languages, list: boolean): unknown {
  const value = (t: string) => (list ? t.split("\n").map((s) => s.trim()).filter(Boolean) : t);
  if (!texts.ar.trim()) return list ? value(texts.en) : texts.en;
  return { en: value(texts.en), ar: value(texts.ar) };
}

export function TranslatedControl(props: ControlProps) {
  const texts = pageTexts();
  const list = props.field.get("list") === true;
  const multiline = list || props.field.get("multiline") === true;
  // The inputs keep what was typed (a list's empty last line while a new item is typed); the
  // entry gets the value made from it.
  const [shown, setShown] = useState<Languages>(() => split(props.value, list));
  const change = (language: keyof Languages) => (event: { target: { value: string } }) => {
    const next = { ...shown, [language]: event.target.value };
    setShown(next);
    const value = joined(next, list);
    props.onChange(typeof value === "string" ? value : fromJS(value));
  };
  const input = (language: keyof Languages, id: string) => {
    const common = {
      id,
      value: shown[language],
      onChange: change(language),
      onFocus: props.setActiveStyle,
      onBlur: props.setInactiveStyle,
      className: props.classNameWrapper,
      dir: language === "ar" ? "rtl" : "ltr",
      lang: language,
    };
    return multiline ? <textarea {...common} rows={list ? 4 : 3} /> : <input type="text" {...common} />;
  };
  const label = { display: "block", font: "600 12px/1.6 system-ui, sans-serif", color: "#5a6270", margin: ".4rem 0 .2rem" } as const;
  return (
    <div>
      <span style={label}>{texts.inEnglish}</span>
      {input("en", props.forID)}
      <label htmlFor={`${props.forID}-ar`} style={label}>
        {texts.inArabic}
      </label>
      {input("ar", `${props.forID}-ar`)}
      {list ? <small style={{ ...label, fontWeight: 400 }}>{texts.onePerLine}</small> : null}
    </div>
  );
}
