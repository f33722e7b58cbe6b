// The one form layer of the islands, in the manner of shadcn/ui's form: react-hook-form holds
// the values (the strings the inputs hold), a zod schema (zod/mini) checks them through
// zodResolver and turns them into the API's body, and `Form` / `FormField` wire each control to
// its label, its hint and its message (aria-invalid, aria-describedby → `${id}-error`).
//
//   const form = useZodForm<Values, Body>({ schema, defaultValues });
//   <Form form={form} onSubmit={(body) => POST(…, body)} className="form">
//     <FormField name="email" id="x-email" label="Email"><input className="input" type="email" /></FormField>
//   </Form>
//
// A schema can also come as a loader (`lazySchema(() => import("./rules"))`): zod then loads on
// the form's first focus or hover, or on submit at the latest, not with the page.
// A field's message stays until the field is edited (or the form is sent again), as the spec's
// forms always did; `live` forms check on every change instead.
import { zodResolver } from "@hookform/resolvers/zod";
import { type ComponentProps, type ReactElement, type ReactNode, cloneElement, useRef, useState } from "react";
import {
  type DefaultValues,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  FormProvider,
  type Resolver,
  get,
  type UseFormReturn,
  useForm,
  useFormContext,
  useFormState,
} from "react-hook-form";
import type * as z from "zod/mini";
import { Field } from "./ui";

/** A zod schema from the form's values (In) to what the form sends (Out). */
export type Schema<In, Out> = z.ZodMiniType<Out, In>;
/** A schema, or the loader of one (see `lazySchema`). */
export type SchemaSource<In, Out> = Schema<In, Out> | (() => Promise<Schema<In, Out>>);

/** A loader that imports once (again after a failure): `lazySchema(() => import("./rules").then((m) => m.rules))`. */
export function lazySchema<S>(load: () => Promise<S>): () => Promise<S> {
  let pending: Promise<S> | null = null;
  return () =>
    (pending ??= load().catch((e: unknown) => {
      pending = null;
      throw e;
    }));
}

export type ZodForm<In extends FieldValues, Out> = UseFormReturn<In, unknown, Out> & {
  /** Starts loading a lazy schema (on intent); nothing for a schema at hand. */
  preload: () => void;
};

export function useZodForm<In extends FieldValues, Out = In>(options: {
  schema: SchemaSource<In, Out>;
  defaultValues: In | (() => In);
  /** Check on every change (a form without a submit button, e.g. a date range). */
  live?: boolean;
}): ZodForm<In, Out> {
  // The newest schema: one built from props (a refund's limits) may change between renders.
  const schema = useRef(options.schema);
  schema.current = options.schema;
  const [resolver] = useState(() => {
    const resolve: Resolver<In, unknown, Out> = async (values, context, opts) => {
      const source = schema.current;
      const resolved = typeof source === "function" ? await source() : source;
      return (zodResolver(resolved) as unknown as Resolver<In, unknown, Out>)(values, context, opts);
    };
    return resolve;
  });
  const [defaultValues] = useState(options.defaultValues);
  const form = useForm<In, unknown, Out>({
    resolver,
    defaultValues: defaultValues as DefaultValues<In>,
    mode: options.live ? "onChange" : "onSubmit",
    reValidateMode: "onSubmit",
    shouldFocusError: false,
  });
  const preload = () => {
    const source = schema.current;
    if (typeof source === "function") source().catch(() => undefined);
  };
  return Object.assign(form, { preload });
}

/** The form element with the form's context: `onSubmit` gets the schema's output. */
export function Form<In extends FieldValues, Out>({
  form,
  onSubmit,
  onInvalid,
  children,
  ...rest
}: {
  form: ZodForm<In, Out>;
  onSubmit: (values: Out) => unknown;
  onInvalid?: (errors: FieldErrors<In>) => void;
  children: ReactNode;
} & Omit<ComponentProps<"form">, "onSubmit" | "onInvalid" | "children">) {
  const submit = form.handleSubmit(onSubmit, onInvalid);
  return (
    <FormProvider {...form}>
      <form
        noValidate
        {...rest}
        onFocus={form.preload}
        onPointerEnter={form.preload}
        onSubmit={(e) => {
          submit(e).catch((err: unknown) => console.error("form", err));
        }}
      >
        {children}
      </form>
    </FormProvider>
  );
}

/** The attributes `FormField` gives its control. */
export interface ControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * One labelled field of the surrounding `Form`: its single child (an input, a select or a
 * textarea) gets the field's value binding, its id and its ARIA state; the message shows under it.
 */
export function FormField<In extends FieldValues>(props: {
  name: FieldPath<In>;
  id: string;
  label: string;
  hint?: string | undefined;
  /** The hint gets `${id}-hint` and describes the control while no message shows. */
  hintDescribes?: boolean;
  /** Another element that describes the control, by id (after the message). */
  describedBy?: string | undefined;
  /** Runs once the value changed. */
  onChange?: (value: string) => void;
  /** Fields to check again when this one changes (live forms). */
  deps?: FieldPath<In>[];
  children: ReactElement;
}) {
  const { register, clearErrors, control } = useFormContext<In>();
  const { errors } = useFormState({ control, name: props.name });
  // A nested field ("members.0.credits") finds its message down the errors' tree.
  const message = (get(errors, props.name) as { message?: unknown } | undefined)?.message;
  const error = typeof message === "string" && message !== "" ? message : undefined;
  const hintId = props.hintDescribes && props.hint ? `${props.id}-hint` : undefined;
  const describedBy = [error ? `${props.id}-error` : hintId, props.describedBy].filter(Boolean).join(" ") || undefined;
  const binding = register(props.name, {
    onChange: (e: { target: { value: string } }) => {
      clearErrors(props.name);
      props.onChange?.(e.target.value);
    },
    ...(props.deps ? { deps: props.deps } : {}),
  });
  const controlProps: ControlProps & typeof binding = { ...binding, id: props.id };
  if (error) controlProps["aria-invalid"] = true;
  if (describedBy) controlProps["aria-describedby"] = describedBy;
  return (
    <Field id={props.id} label={props.label} error={error} hint={props.hint} hintId={hintId}>
      {cloneElement(props.children as ReactElement<ControlProps>, controlProps)}
    </Field>
  );
}

/** Puts the API's field messages (`error.fields`) on the fields of the form that have them. */
export function showServerErrors<In extends FieldValues>(
  form: Pick<UseFormReturn<In, unknown, unknown>, "setError">,
  fields: Record<string, string>,
  known: readonly FieldPath<In>[],
  /** The API's name of a field when it is not the form's (full_name → fullName). */
  apiName: (name: FieldPath<In>) => string = (name) => name,
): void {
  for (const name of known) {
    const message = fields[apiName(name)];
    if (message) form.setError(name, { type: "server", message });
  }
}
