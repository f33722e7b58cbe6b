// A message with markup in it: its tags (`<strong>…</strong>`, `<link>…</link>`) become the
// React elements the caller gives for them, so a translation can put a link or a bold word
// wherever its own word order needs it.
//
//   rich("client.confirm.sent", { email, strong: (c) => <strong>{c}</strong> })
import { Fragment, type ReactNode } from "react";
import { type MessageKey, compiled, locale } from "./i18n";
import { formatParts } from "./messageformat";

export type RichValues = Record<string, string | number | ReactNode | ((chunks: ReactNode[]) => ReactNode)>;

export function rich(key: MessageKey, values: RichValues = {}): ReactNode {
  const message = compiled(key);
  if (message === undefined) {
    console.error(`i18n: no message ${key}`);
    return key;
  }
  if (typeof message === "string") return message;
  const parts = formatParts(message, locale(), values) as ReactNode[];
  return parts.length === 1 ? parts[0] : parts.map((part, i) => <Fragment key={i}>{part}</Fragment>);
}
