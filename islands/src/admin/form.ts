// A small state hook for the admin forms: every value is the string its input holds (the
// validators in ./validation turn them into the API's body), plus the messages per field.
import { type ChangeEvent, useState } from "react";
import type { Errors } from "./validation";

type Input = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export function useForm<T extends { [K in keyof T]: string }>(initial: () => T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Errors<keyof T & string>>({});

  function set<K extends keyof T & string>(key: K, value: T[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  }

  /** value, onChange, id and the ARIA state of one input. */
  function bind<K extends keyof T & string>(key: K, id: string) {
    const error = errors[key];
    return {
      id,
      name: key,
      value: values[key],
      onChange: (e: ChangeEvent<Input>) => set(key, e.target.value as T[K]),
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? `${id}-error` : undefined,
    };
  }

  return { values, errors, setErrors, set, bind, reset: (next: T = initial()) => (setValues(next), setErrors({})) };
}
