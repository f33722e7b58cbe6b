// The New engagement form's executives: rows of [an existing client, or an email to invite] and
// their credits, Add executive and Remove, and the credits left in the pool, live. The rows are
// controlled inputs over the form's `members` value (setValue), not registered fields: a field
// array (react-hook-form's useFieldArray) would add its code to the chunk every form of every
// island loads.
import { type ChangeEvent, type ReactElement, cloneElement, useEffect, useRef, useState } from "react";
import { get, useFormContext, useFormState, useWatch } from "react-hook-form";
import type { ClientRow } from "../../api/types";
import { t } from "../../lib/i18n";
import { Field } from "../../lib/ui";
import { PlusIcon } from "../parts";
import { type EngagementValues, INVITE, type MemberValues, memberDefaults, poolLeft } from "./rules";

/** The clients to pick from, by name. */
export function ClientOptions({ clients }: { clients: ClientRow[] }) {
  return (
    <>
      {[...clients]
        .sort((a, b) => a.full_name.localeCompare(b.full_name))
        .map((c) => (
          <option key={c.user_id} value={c.user_id}>
            {t("admin.sponsors.clientOption", { name: c.full_name, email: c.email })}
          </option>
        ))}
    </>
  );
}

/** "8 credits left in the pool", live as the credits are typed. */
export function PoolLine({ left, id }: { left: number | null; id: string }) {
  const text =
    left === null ? t("admin.sponsors.poolUnknown") : left < 0 ? t("admin.sponsors.poolOver", { count: -left }) : t("admin.sponsors.poolLeft", { count: left });
  return (
    <p className={left !== null && left < 0 ? "field__error" : "field__hint"} id={id} aria-live="polite">
      {text}
    </p>
  );
}

type Key = keyof MemberValues;

/** One control of a row: labelled, with its message (aria-invalid, aria-describedby). */
function Control(props: { id: string; label: string; hint?: string; error: string | undefined; value: string; onChange: (v: string) => void; children: ReactElement }) {
  const control = cloneElement(props.children as ReactElement<Record<string, unknown>>, {
    id: props.id,
    value: props.value,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => props.onChange(e.target.value),
    "aria-invalid": props.error ? true : undefined,
    "aria-describedby": props.error ? `${props.id}-error` : undefined,
  });
  return (
    <Field id={props.id} label={props.label} hint={props.hint} error={props.error}>
      {control}
    </Field>
  );
}

function MemberRow(props: { index: number; id: string; member: MemberValues; clients: ClientRow[]; onChange: (key: Key, value: string) => void; onRemove: () => void }) {
  const { control } = useFormContext<EngagementValues>();
  const { errors } = useFormState({ control });
  const { index, id, member } = props;
  const error = (key: Key) => (get(errors, `members.${index}.${key}`) as { message?: string } | undefined)?.message || undefined;
  const n = index + 1;
  return (
    <div className="sponsors-member" role="group" aria-label={t("admin.sponsors.memberN", { n })}>
      <Control id={`${id}-who`} label={t("admin.sponsors.field.executive")} error={error("who")} value={member.who} onChange={(v) => props.onChange("who", v)}>
        <select className="input">
          <option value="">{t("admin.sponsors.chooseClient")}</option>
          <ClientOptions clients={props.clients} />
          <option value={INVITE}>{t("admin.sponsors.inviteByEmail")}</option>
        </select>
      </Control>
      {member.who === INVITE ? (
        <Control
          id={`${id}-email`}
          label={t("admin.sponsors.field.inviteEmail")}
          hint={t("admin.sponsors.field.inviteHint")}
          error={error("email")}
          value={member.email}
          onChange={(v) => props.onChange("email", v)}
        >
          <input className="input" type="email" dir="ltr" autoComplete="off" spellCheck={false} />
        </Control>
      ) : null}
      <Control id={`${id}-credits`} label={t("admin.sponsors.field.memberCredits")} error={error("credits")} value={member.credits} onChange={(v) => props.onChange("credits", v)}>
        <input className="input" type="number" inputMode="numeric" min={1} step={1} />
      </Control>
      <button type="button" className="btn btn--sm admin-btn--danger-outline" onClick={props.onRemove}>
        {t("admin.sponsors.remove")}
        <span className="visually-hidden"> {t("admin.sponsors.memberN", { n })}</span>
      </button>
    </div>
  );
}

export function MembersField({ id, clients }: { id: string; clients: ClientRow[] }) {
  const { control, setValue, clearErrors } = useFormContext<EngagementValues>();
  const { errors } = useFormState({ control });
  const [credits, watched] = useWatch({ control, name: ["credits", "members"] });
  const members = watched ?? [];
  // A stable key per row, so removing one keeps the others' inputs (and focus) in place.
  const next = useRef(0);
  const [keys, setKeys] = useState<number[]>(() => members.map(() => next.current++));
  const [added, setAdded] = useState<number | null>(null);
  useEffect(() => {
    if (added !== null) document.getElementById(`${id}-${added}-who`)?.focus();
  }, [added, id]);

  const set = (list: MemberValues[]) => setValue("members", list, { shouldDirty: true });
  const e = get(errors, "members") as { message?: string; root?: { message?: string } } | undefined;
  const error = e?.message || e?.root?.message;
  return (
    <fieldset className="admin-fieldset" aria-describedby={error ? `${id}-error ${id}-pool` : `${id}-pool`}>
      <legend className="admin-fieldset__legend">{t("admin.sponsors.field.members")}</legend>
      <p className="field__hint">{t("admin.sponsors.field.membersHint")}</p>
      {members.map((m, i) => (
        <MemberRow
          key={keys[i] ?? i}
          index={i}
          id={`${id}-${keys[i] ?? i}`}
          member={m}
          clients={clients}
          onChange={(key, value) => {
            clearErrors([`members.${i}.${key}`, "members"]);
            set(members.map((x, j) => (j === i ? { ...x, [key]: value } : x)));
          }}
          onRemove={() => {
            clearErrors("members");
            set(members.filter((_, j) => j !== i));
            setKeys((k) => k.filter((_, j) => j !== i));
          }}
        />
      ))}
      <button
        type="button"
        className="btn btn--outline btn--sm admin-back"
        onClick={() => {
          const key = next.current++;
          set([...members, memberDefaults()]);
          setKeys((k) => [...k, key]);
          setAdded(key);
        }}
      >
        <PlusIcon />
        {t("admin.sponsors.addMember")}
      </button>
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
      <PoolLine id={`${id}-pool`} left={poolLeft({ credits: credits ?? "", members })} />
    </fieldset>
  );
}
