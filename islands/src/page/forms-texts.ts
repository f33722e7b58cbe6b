// The texts of the newsletter, contact and confirm forms (./forms, ./validate):
// src/i18n/<lang>/forms.json. They ship with the forms' code, loaded on the first submit.
import EN_FORMS from "../i18n/en/forms.json";
import type { Lang } from "../lib/lang";
import { catalogue } from "./texts";

export type FormsKey = keyof typeof EN_FORMS;

const forms = catalogue(EN_FORMS, () => import("../i18n/ar/forms.json"));

export const loadFormsTexts = (lang?: Lang) => forms.load(lang);
/** A text of the forms, in the page's language once `loadFormsTexts` ran (English before). */
export const formsText = (key: FormsKey, values?: Record<string, string | number>) => forms.text(key, values);
